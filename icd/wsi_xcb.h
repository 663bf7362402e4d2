// X11 windows through XCB (VK_KHR_xcb_surface): the window's size for the surface queries and
// an output that copies presented images into the window, with MIT-SHM when the server offers
// it, else PutImage. No X headers here: only wsi_xcb.cpp sees them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vulkan/vulkan_core.h>

namespace tessera {

struct Surface;

bool isXcbSurface(const Surface& surface);
// The window's current size; false when the window cannot be queried (gone, or the
// connection broken).
bool xcbWindowExtent(const Surface& surface, VkExtent2D* out);

class XcbOutput {
 public:
  // Null when the window's visual is not one Tessera can write (32 bits per pixel, 8-bit
  // RGB channels in either order).
  static std::unique_ptr<XcbOutput> create(const Surface& surface);
  ~XcbOutput();
  XcbOutput(const XcbOutput&) = delete;
  XcbOutput& operator=(const XcbOutput&) = delete;

  // Copies width x height pixels of `format` (8-bit RGBA or BGRA, rows rowPitch bytes apart)
  // to the window's top-left corner; the server clips what lies outside. Returns once the
  // pixels are no longer needed (the caller may then reuse the image).
  void show(const uint8_t* pixels, uint32_t width, uint32_t height, size_t rowPitch, VkFormat format);
  bool usesSharedMemory() const;
  // Whether the window is still width x height (a round trip; false also when it is gone).
  bool windowIs(uint32_t width, uint32_t height) const;

 private:
  struct State;
  explicit XcbOutput(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace tessera
