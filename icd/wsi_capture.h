// Frame capture: TESSERA_CAPTURE_DIR=dir writes presented images there as PNG files, the frames
// TESSERA_CAPTURE_FRAMES selects (default: all); both are read when a swapchain is created.
// Frames are numbered per VkDevice from 1 in vkQueuePresentKHR order; the file of frame N is
// dir/frame-NNNNNN.png (6 digits at least). The presentation engine's thread writes them.
//
// TESSERA_CAPTURE_FRAMES is a comma-separated list of
//   N          frame N                       e.g. 1
//   A-B        frames A to B inclusive       e.g. 100-110
//   every:N    frames N, 2N, 3N, ...         e.g. every:10
//   all        every frame
// e.g. "1,10,100-110,every:1000". Spaces around items are ignored; anything else makes the
// whole setting invalid, and then nothing is captured (a TESSERA_LOG warning says why).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <vulkan/vulkan_core.h>

namespace tessera {

class FrameSelection {
 public:
  static std::optional<FrameSelection> parse(std::string_view text);
  static FrameSelection everything();
  bool contains(uint64_t frame) const;

 private:
  struct Range {
    uint64_t first, last;
  };
  std::vector<Range> ranges_;
  std::vector<uint64_t> every_;
};

struct CaptureSettings {
  std::string dir;
  FrameSelection frames;
};

// Read from the environment (each swapchain reads it when it is created; the directory is
// created if missing); nothing when TESSERA_CAPTURE_DIR is unset or empty, or
// TESSERA_CAPTURE_FRAMES is invalid.
std::optional<CaptureSettings> captureSettingsFromEnvironment();

std::string captureFileName(const std::string& dir, uint64_t frame);

// Writes width x height pixels of `format` (B8G8R8A8 or R8G8B8A8, UNORM or SRGB; rows
// `rowPitch` bytes apart) to `path` as an 8-bit RGB PNG tagged sRGB: the swapchain's colour
// space is SRGB_NONLINEAR and its composite alpha OPAQUE, so alpha is not written. The file
// appears complete or not at all (written beside it, then renamed). False on any failure.
bool writeCapturePng(const std::string& path, const uint8_t* pixels, uint32_t width, uint32_t height,
                     size_t rowPitch, VkFormat format);

}  // namespace tessera
