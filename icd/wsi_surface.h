// VkSurfaceKHR (VK_KHR_surface) and what a surface can present: the headless platform
// (VK_EXT_headless_surface) and X11 windows (VK_KHR_xcb_surface and VK_KHR_xlib_surface,
// wsi_xcb.h) and Wayland surfaces (VK_KHR_wayland_surface, wsi_wayland.h). Surfaces start like the loader's VkIcdSurface* structs (vk_icd.h), so a surface
// the loader made itself reads the same as one Tessera made.
#pragma once

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>

namespace tessera {

struct Surface {
  VkIcdSurfaceBase base;  // base.platform says which platform made it
  // Platform data after the base, laid out as the loader's struct for that platform.
};

// What every Tessera surface offers (spec: "Surface Queries"). Presentation copies the image
// out (to a PNG, a window), so images return to the application as soon as they are read.
constexpr uint32_t kSurfaceMinImageCount = 2;   // one being read out, one being rendered
constexpr uint32_t kSurfaceMaxImageCount = 16;
constexpr uint32_t kSurfaceMaxExtent = 16384;  // maxImageDimension2D
constexpr VkImageUsageFlags kSurfaceImageUsage =
    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;

bool surfacePlatformSupported(const Surface& surface);
std::span<const VkSurfaceFormatKHR> surfaceFormats();
std::span<const VkPresentModeKHR> surfacePresentModes();
// VK_ERROR_SURFACE_LOST_KHR for a platform Tessera cannot present to.
VkResult surfaceCapabilities(const Surface& surface, VkSurfaceCapabilitiesKHR* out);

}  // namespace tessera
