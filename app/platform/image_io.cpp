// Framebuffer read-back and PNG output (stb_image_write from Debian's libstb).
#include <glad/gl.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "platform/gl_info.hpp"
#include "platform/platform.hpp"

namespace sortscope::app {

void read_bound_framebuffer(int width, int height, std::vector<uint8_t>* rgba) {
  rgba->resize(size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba->data());
  // Blended UI leaves alpha below 1 in places; a screenshot is what the eye sees: opaque.
  for (size_t i = 3; i < rgba->size(); i += 4) (*rgba)[i] = 255;
  // GL's rows run bottom-up; images run top-down.
  std::vector<uint8_t> row(size_t(width) * 4);
  for (int y = 0; y < height / 2; ++y) {
    uint8_t* a = rgba->data() + size_t(y) * width * 4;
    uint8_t* b = rgba->data() + size_t(height - 1 - y) * width * 4;
    std::memcpy(row.data(), a, row.size());
    std::memcpy(a, b, row.size());
    std::memcpy(b, row.data(), row.size());
  }
}

Status write_png(const Image& image, const std::string& path) {
  if (image.width <= 0 || image.height <= 0) return InvalidArgument("empty image");
  if (!stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(), image.width * 4))
    return IoError("cannot write '" + path + "'");
  return Status::Ok();
}

Status write_pdf(const std::vector<Image>& pages, const std::string& path) {
  if (pages.empty()) return InvalidArgument("a PDF needs a page");
  // Objects: 1 the catalog, 2 the page tree, then three a page: the page, its content, its image.
  std::ostringstream pdf;
  std::vector<size_t> offsets(3 + 3 * pages.size(), 0);
  pdf << "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  auto begin_object = [&](size_t id) {
    offsets[id] = size_t(pdf.tellp());
    pdf << id << " 0 obj\n";
  };
  begin_object(1);
  pdf << "<< /Type /Catalog /Pages 2 0 R >>\nendobj\n";
  begin_object(2);
  pdf << "<< /Type /Pages /Count " << pages.size() << " /Kids [";
  for (size_t i = 0; i < pages.size(); ++i) pdf << " " << 3 + 3 * i << " 0 R";
  pdf << " ] >>\nendobj\n";
  for (size_t i = 0; i < pages.size(); ++i) {
    const Image& image = pages[i];
    if (image.width <= 0 || image.height <= 0) return InvalidArgument("page " + std::to_string(i + 1) + " has no picture");
    std::vector<uint8_t> rgb(size_t(image.width) * image.height * 3);
    for (size_t p = 0; p < size_t(image.width) * image.height; ++p)
      std::memcpy(&rgb[p * 3], &image.rgba[p * 4], 3);
    std::string jpeg;
    stbi_write_jpg_to_func([](void* out, void* data, int size) { static_cast<std::string*>(out)->append(static_cast<char*>(data), size_t(size)); },
                           &jpeg, image.width, image.height, 3, rgb.data(), 90);
    if (jpeg.empty()) return IoError("page " + std::to_string(i + 1) + ": the picture could not be compressed");
    // A page in points: 1920 pixels make a 960-point (13.3-inch) wide slide.
    const double w = image.width / 2.0, h = image.height / 2.0;
    const size_t page = 3 + 3 * i, content = page + 1, picture = page + 2;
    begin_object(page);
    pdf << "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " << w << " " << h << "] /Contents " << content
        << " 0 R /Resources << /XObject << /Im" << i << " " << picture << " 0 R >> >> >>\nendobj\n";
    const std::string draw = "q " + std::to_string(w) + " 0 0 " + std::to_string(h) + " 0 0 cm /Im" + std::to_string(i) + " Do Q\n";
    begin_object(content);
    pdf << "<< /Length " << draw.size() << " >>\nstream\n" << draw << "endstream\nendobj\n";
    begin_object(picture);
    pdf << "<< /Type /XObject /Subtype /Image /Width " << image.width << " /Height " << image.height
        << " /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length " << jpeg.size() << " >>\nstream\n";
    pdf.write(jpeg.data(), std::streamsize(jpeg.size()));
    pdf << "\nendstream\nendobj\n";
  }
  const size_t xref = size_t(pdf.tellp());
  pdf << "xref\n0 " << offsets.size() << "\n0000000000 65535 f \n";
  for (size_t id = 1; id < offsets.size(); ++id) {
    char line[24];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", offsets[id]);
    pdf << line;
  }
  pdf << "trailer\n<< /Size " << offsets.size() << " /Root 1 0 R >>\nstartxref\n" << xref << "\n%%EOF\n";
  std::ofstream out(path, std::ios::binary);
  const std::string bytes = pdf.str();
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) return IoError("cannot write '" + path + "'");
  return Status::Ok();
}

Image crop(const Image& image, int x, int y, int width, int height) {
  const int x0 = std::clamp(x, 0, image.width), y0 = std::clamp(y, 0, image.height);
  const int x1 = std::clamp(x + width, x0, image.width), y1 = std::clamp(y + height, y0, image.height);
  Image out;
  out.width = x1 - x0;
  out.height = y1 - y0;
  out.rgba.resize(size_t(out.width) * out.height * 4);
  for (int row = 0; row < out.height; ++row)
    std::memcpy(out.rgba.data() + size_t(row) * out.width * 4, image.rgba.data() + (size_t(y0 + row) * image.width + x0) * 4,
                size_t(out.width) * 4);
  return out;
}

}  // namespace sortscope::app
