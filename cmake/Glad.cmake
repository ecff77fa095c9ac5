# Generates the OpenGL 4.6 core + EGL 1.5 loader with Debian's python3-glad at build time
# (--reproducible keeps it offline) and builds it as the `sortscope_glad` library.
find_program(GLAD_EXECUTABLE glad PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT GLAD_EXECUTABLE)
  find_program(GLAD_EXECUTABLE glad)
endif()
if(NOT GLAD_EXECUTABLE)
  message(FATAL_ERROR "glad not found: install python3-glad (the README's first command does)")
endif()

set(SORTSCOPE_GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
set(SORTSCOPE_GLAD_SOURCES ${SORTSCOPE_GLAD_DIR}/src/gl.c ${SORTSCOPE_GLAD_DIR}/src/egl.c)
add_custom_command(
  OUTPUT ${SORTSCOPE_GLAD_SOURCES} ${SORTSCOPE_GLAD_DIR}/include/glad/gl.h ${SORTSCOPE_GLAD_DIR}/include/glad/egl.h
  # Call the glad executable (its first line names Debian's python3) rather than `python3 -m glad`.
  COMMAND ${GLAD_EXECUTABLE} --quiet --api gl:core=4.6,egl=1.5 --out-path ${SORTSCOPE_GLAD_DIR} --reproducible c --loader
  COMMENT "Generating the OpenGL/EGL loader with glad"
  VERBATIM)
add_library(sortscope_glad STATIC ${SORTSCOPE_GLAD_SOURCES})
target_include_directories(sortscope_glad SYSTEM PUBLIC ${SORTSCOPE_GLAD_DIR}/include)
target_link_libraries(sortscope_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(sortscope_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
