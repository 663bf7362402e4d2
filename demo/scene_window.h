// The scene demo's window: shows a rendered picture on the X11 display named by $DISPLAY for a
// few seconds, presented through the Vulkan driver's own swapchain (VK_KHR_xcb_surface).
#pragma once

#include <cstdint>

// Shows `rgba` (w x h, 8-bit RGBA rows) in a window for `seconds`, presenting it again every
// frame (FIFO) so the window stays drawn when it is exposed or moved. Uses the first Vulkan device
// the loader offers (the caller names one manifest in VK_DRIVER_FILES). Returns 0, or 1 after
// saying on stderr what failed.
int showSceneInWindow(const uint8_t* rgba, uint32_t w, uint32_t h, double seconds);
