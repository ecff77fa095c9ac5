# Embeds text files of assets/ into a C++ source as string constants (assets/palettes.txt becomes
# sortscope::assets::palettes_txt), so the binary needs no data files at run time. Re-runs when one
# changes.
function(sortscope_embed_assets out_cpp)
  set(body "// Generated from assets/ by cmake/EmbedAssets.cmake; edit the files there instead.\n")
  string(APPEND body "#include \"embedded_assets.hpp\"\n\nnamespace sortscope::assets {\n")
  foreach(file IN LISTS ARGN)
    get_filename_component(name ${file} NAME_WE)
    get_filename_component(ext ${file} EXT)
    string(REPLACE "." "_" ext_id ${ext})
    file(READ ${file} text)
    string(APPEND body "const char* const ${name}${ext_id} = R\"sortscope_asset(${text})sortscope_asset\";\n")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  endforeach()
  string(APPEND body "}  // namespace sortscope::assets\n")
  file(GENERATE OUTPUT ${out_cpp} CONTENT "${body}")
endfunction()
