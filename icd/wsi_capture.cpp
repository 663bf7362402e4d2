#include "wsi_capture.h"

#include <png.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "tessera/log.h"

namespace tessera {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A whole decimal number, nothing else.
std::optional<uint64_t> number(std::string_view s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

bool isRgbaOrder(VkFormat format) {
  return format == VK_FORMAT_R8G8B8A8_UNORM || format == VK_FORMAT_R8G8B8A8_SRGB;
}

}  // namespace

std::optional<FrameSelection> FrameSelection::parse(std::string_view text) {
  FrameSelection sel;
  while (true) {
    const size_t comma = text.find(',');
    const std::string_view item = trim(text.substr(0, comma));
    if (item == "all") {
      sel.every_.push_back(1);
    } else if (item.substr(0, 6) == "every:") {
      auto n = number(item.substr(6));
      if (!n || *n == 0) return std::nullopt;
      sel.every_.push_back(*n);
    } else if (const size_t dash = item.find('-'); dash != std::string_view::npos) {
      auto a = number(item.substr(0, dash)), b = number(item.substr(dash + 1));
      if (!a || !b || *a > *b) return std::nullopt;
      sel.ranges_.push_back({*a, *b});
    } else {
      auto n = number(item);
      if (!n) return std::nullopt;
      sel.ranges_.push_back({*n, *n});
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return sel;
}

FrameSelection FrameSelection::everything() {
  FrameSelection sel;
  sel.every_.push_back(1);
  return sel;
}

bool FrameSelection::contains(uint64_t frame) const {
  for (const Range& r : ranges_)
    if (frame >= r.first && frame <= r.last) return true;
  for (uint64_t n : every_)
    if (frame != 0 && frame % n == 0) return true;  // N, 2N, 3N, ... (frames count from 1)
  return false;
}

std::optional<CaptureSettings> captureSettingsFromEnvironment() {
  const char* dir = std::getenv("TESSERA_CAPTURE_DIR");
  if (!dir || !*dir) return std::nullopt;
  CaptureSettings s{dir, FrameSelection::everything()};
  std::error_code ec;
  std::filesystem::create_directories(s.dir, ec);  // a missing directory is made, not an error
  if (const char* frames = std::getenv("TESSERA_CAPTURE_FRAMES"); frames && *frames) {
    auto parsed = FrameSelection::parse(frames);
    if (!parsed) {
      TESSERA_LOG(Warn, "TESSERA_CAPTURE_FRAMES=\"%s\" is not a list of N, A-B, every:N or all: nothing is captured",
                  frames);
      return std::nullopt;
    }
    s.frames = *parsed;
  }
  return s;
}

std::string captureFileName(const std::string& dir, uint64_t frame) {
  char name[48];
  std::snprintf(name, sizeof(name), "/frame-%06llu.png", static_cast<unsigned long long>(frame));
  return dir + name;
}

bool writeCapturePng(const std::string& path, const uint8_t* pixels, uint32_t width, uint32_t height,
                     size_t rowPitch, VkFormat format) {
  const std::string partial = path + ".partial";
  FILE* f = std::fopen(partial.c_str(), "wb");
  if (!f) {
    TESSERA_LOG(Warn, "capture: cannot write %s (%d)", partial.c_str(), errno);
    return false;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  std::vector<uint8_t> row(size_t(width) * 3);
  // libpng reports errors by longjmp: `ok` is volatile so that it survives one, and nothing
  // with a destructor is created between setjmp and the end.
  volatile bool ok = png && info;
  if (ok && setjmp(png_jmpbuf(png))) ok = false;
  if (ok) {
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB_gAMA_and_cHRM(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);
    const int r = isRgbaOrder(format) ? 0 : 2, b = 2 - r;
    for (uint32_t y = 0; y < height; ++y) {
      const uint8_t* src = pixels + y * rowPitch;
      for (uint32_t x = 0; x < width; ++x) {
        row[3 * x + 0] = src[4 * x + r];
        row[3 * x + 1] = src[4 * x + 1];
        row[3 * x + 2] = src[4 * x + b];
      }
      png_write_row(png, row.data());
    }
    png_write_end(png, nullptr);
  }
  png_destroy_write_struct(png ? &png : nullptr, info ? &info : nullptr);
  ok = std::fclose(f) == 0 && ok;
  if (ok && std::rename(partial.c_str(), path.c_str()) != 0) ok = false;
  if (!ok) {
    std::remove(partial.c_str());
    TESSERA_LOG(Warn, "capture: writing %s failed", path.c_str());
  }
  return ok;
}

}  // namespace tessera
