// SortScope's entry point: the command line decides between the GUI and the bench command.
#include "cli/options.hpp"

int main(int argc, char** argv) { return sortscope::app::cli::main(argc, argv); }
