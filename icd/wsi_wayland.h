// Wayland surfaces (VK_KHR_wayland_surface): presented images are copied into wl_shm buffers
// attached to the application's wl_surface; FIFO waits for the compositor's frame callback
// before the next commit. No Wayland headers here: only wsi_wayland.cpp sees them.
#pragma once

#include <memory>
#include <vulkan/vulkan_core.h>

#include "wsi_output.h"

namespace tessera {

struct Surface;

bool isWaylandSurface(const Surface& surface);
// Whether the surface's wl_display has failed (the compositor is gone, or a protocol error):
// the surface is lost.
bool waylandDisplayFailed(const Surface& surface);
// The output of a swapchain presenting in `mode`; on a failed connection one whose window is
// Gone from the start.
// `premultiplied`: buffers in ARGB8888 (the swapchain's images carry premultiplied alpha), else
// XRGB8888 (opaque).
std::unique_ptr<WindowOutput> createWaylandOutput(const Surface& surface, VkPresentModeKHR mode, bool premultiplied);

}  // namespace tessera
