// X11 windows through XCB (VK_KHR_xcb_surface, and VK_KHR_xlib_surface through the Display's
// xcb connection, wsi_xlib.h): the window's size for the surface queries and an output that
// copies presented images into the window, with MIT-SHM when the server offers it, else
// PutImage. No X headers here: only wsi_xcb.cpp sees them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vulkan/vulkan_core.h>

#include "wsi_output.h"

namespace tessera {

struct Surface;

// An xcb or an xlib surface.
bool isX11Surface(const Surface& surface);
// The window's current size; false when the window cannot be queried (gone, or the
// connection broken).
bool x11WindowExtent(const Surface& surface, VkExtent2D* out);

class XcbOutput final : public WindowOutput {
 public:
  // Null when the window's visual is not one Tessera can write (32 bits per pixel, 8-bit
  // RGB channels in either order) or the window is gone.
  static std::unique_ptr<XcbOutput> create(const Surface& surface);
  ~XcbOutput() override;
  XcbOutput(const XcbOutput&) = delete;
  XcbOutput& operator=(const XcbOutput&) = delete;

  // The server clips what lies outside the window.
  void show(const uint8_t* pixels, uint32_t width, uint32_t height, size_t rowPitch, VkFormat format) override;
  bool usesSharedMemory() const;
  // Resized unless the window is exactly width x height (a round trip).
  WindowState windowState(uint32_t width, uint32_t height) const override;

 private:
  struct State;
  explicit XcbOutput(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace tessera
