// A window the presentation engine (wsi_presenter.h) copies presented images into: an X11
// window (wsi_xcb.h, for xcb and xlib surfaces) or a Wayland surface (wsi_wayland.h). Used on the
// presenter's thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vulkan/vulkan_core.h>

namespace tessera {

struct Surface;

// What became of a window the presentation engine shows images in.
enum class WindowState {
  Same,     // still fits the swapchain
  Resized,  // the swapchain no longer matches it: VK_SUBOPTIMAL_KHR
  Gone,     // the window or the connection to its server is gone: VK_ERROR_SURFACE_LOST_KHR
};

class WindowOutput {
 public:
  virtual ~WindowOutput() = default;
  // Copies width x height pixels of `format` (8-bit RGBA or BGRA, rows rowPitch bytes apart)
  // to the window's top-left corner. Returns once the pixels are no longer needed (the caller
  // may then reuse the image).
  virtual void show(const uint8_t* pixels, uint32_t width, uint32_t height, size_t rowPitch, VkFormat format) = 0;
  // The window's state for a swapchain of width x height, asked after each show().
  virtual WindowState windowState(uint32_t width, uint32_t height) const = 0;
};

// The output of a window surface for a swapchain presenting in `mode`; null for a headless
// surface, or a window Tessera cannot write (the swapchain then presents to captures only).
std::unique_ptr<WindowOutput> createWindowOutput(const Surface& surface, VkPresentModeKHR mode,
                                                 VkCompositeAlphaFlagBitsKHR compositeAlpha);

}  // namespace tessera
