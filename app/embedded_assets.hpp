// Text files of assets/, built into the program (cmake/EmbedText.cmake).
#pragma once

namespace sortscope::assets {
extern const char* const palettes_txt;  // assets/palettes.txt: the digit palettes
extern const char* const fonts_txt;     // assets/fonts.txt: where the UI font is looked for
}  // namespace sortscope::assets
