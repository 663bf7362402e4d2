// Surfaces and the vkGetPhysicalDeviceSurface* queries (the X11 specifics in wsi_xcb.cpp and
// wsi_xlib.cpp, Wayland's in wsi_wayland.cpp).
#include "wsi_surface.h"

#include <algorithm>

#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "wsi_wayland.h"
#include "wsi_xcb.h"

namespace tessera {
namespace {

// 8-bit RGBA in both orders, UNORM and SRGB, in the sRGB colour space: what the capture writer
// and window output read directly. B8G8R8A8_SRGB first: the usual pick of applications.
constexpr VkSurfaceFormatKHR kFormats[] = {
    {VK_FORMAT_B8G8R8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_R8G8B8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_R8G8B8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
};

constexpr VkPresentModeKHR kPresentModes[] = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR,
                                              VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR};

template <typename T>
VkResult fillArray(uint32_t* pCount, T* pOut, std::span<const T> items) {
  if (!pOut) {
    *pCount = uint32_t(items.size());
    return VK_SUCCESS;
  }
  const uint32_t n = std::min<uint32_t>(*pCount, uint32_t(items.size()));
  std::copy_n(items.begin(), n, pOut);
  *pCount = n;
  return n < items.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace

bool surfacePlatformSupported(const Surface& surface) {
  return surface.base.platform == VK_ICD_WSI_PLATFORM_HEADLESS || isX11Surface(surface) || isWaylandSurface(surface);
}

std::unique_ptr<WindowOutput> createWindowOutput(const Surface& surface, VkPresentModeKHR mode,
                                                 VkCompositeAlphaFlagBitsKHR compositeAlpha) {
  if (isX11Surface(surface)) return XcbOutput::create(surface);
  if (isWaylandSurface(surface))
    return createWaylandOutput(surface, mode, compositeAlpha == VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR);
  return nullptr;
}

std::span<const VkSurfaceFormatKHR> surfaceFormats() { return kFormats; }
std::span<const VkPresentModeKHR> surfacePresentModes() { return kPresentModes; }

VkResult surfaceCapabilities(const Surface& surface, VkSurfaceCapabilitiesKHR* out) {
  if (!surfacePlatformSupported(surface)) return VK_ERROR_SURFACE_LOST_KHR;
  if (isWaylandSurface(surface) && waylandDisplayFailed(surface)) return VK_ERROR_SURFACE_LOST_KHR;
  *out = {};
  out->minImageCount = kSurfaceMinImageCount;
  out->maxImageCount = kSurfaceMaxImageCount;
  if (isX11Surface(surface)) {
    // A window's swapchain matches the window (as on other X11 drivers); a window that
    // cannot be asked for its size is gone.
    VkExtent2D extent;
    if (!x11WindowExtent(surface, &extent)) return VK_ERROR_SURFACE_LOST_KHR;
    out->currentExtent = out->minImageExtent = out->maxImageExtent = extent;
  } else {
    // A headless or Wayland surface has no size of its own: the swapchain's imageExtent
    // decides (VK_EXT_headless_surface, VK_KHR_wayland_surface: currentExtent is the special
    // value 0xFFFFFFFF).
    out->currentExtent = {0xFFFFFFFFu, 0xFFFFFFFFu};
    out->minImageExtent = {1, 1};
    out->maxImageExtent = {kSurfaceMaxExtent, kSurfaceMaxExtent};
  }
  out->maxImageArrayLayers = 1;
  out->supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  out->currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  out->supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  // X11: the images' pixels go to the window as they are (wsi_xcb.cpp), so how the window
  // system composites their alpha is the window's business, which is what INHERIT means
  // ("the application is responsible for setting the composite alpha blending mode using
  // native window system commands"); other X11 drivers offer it too.
  if (isX11Surface(surface)) out->supportedCompositeAlpha |= VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
  // Wayland: wl_shm's ARGB8888 is premultiplied alpha ("the colour channels are premultiplied",
  // wayland.xml's wl_shm format), so a PRE_MULTIPLIED swapchain's images go to the compositor as
  // such buffers with their alpha (wsi_wayland.cpp), OPAQUE ones as XRGB8888.
  if (isWaylandSurface(surface)) out->supportedCompositeAlpha |= VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR;
  out->supportedUsageFlags = kSurfaceImageUsage;
  return VK_SUCCESS;
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateHeadlessSurfaceEXT(VkInstance instance,
                                                                 const VkHeadlessSurfaceCreateInfoEXT*,
                                                                 const VkAllocationCallbacks* pAllocator,
                                                                 VkSurfaceKHR* pSurface) {
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, fromHandle<Instance>(instance)->allocator());
  Surface* s = hostNew<Surface>(a, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!s) return VK_ERROR_OUT_OF_HOST_MEMORY;
  s->base.platform = VK_ICD_WSI_PLATFORM_HEADLESS;
  *pSurface = toHandle<VkSurfaceKHR>(s);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroySurfaceKHR(VkInstance instance, VkSurfaceKHR surface,
                                                      const VkAllocationCallbacks* pAllocator) {
  if (!surface) return;
  hostDelete(pickAllocator(pAllocator, fromHandle<Instance>(instance)->allocator()), fromHandle<Surface>(surface));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceSurfaceSupportKHR(VkPhysicalDevice, uint32_t queueFamilyIndex,
                                                                           VkSurfaceKHR surface, VkBool32* pSupported) {
  // The one queue family presents to every surface Tessera knows.
  *pSupported = queueFamilyIndex == 0 && surfacePlatformSupported(*fromHandle<Surface>(surface));
  return surfacePlatformSupported(*fromHandle<Surface>(surface)) ? VK_SUCCESS : VK_ERROR_SURFACE_LOST_KHR;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceSurfaceCapabilitiesKHR(
    VkPhysicalDevice, VkSurfaceKHR surface, VkSurfaceCapabilitiesKHR* pCapabilities) {
  return surfaceCapabilities(*fromHandle<Surface>(surface), pCapabilities);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceSurfaceFormatsKHR(VkPhysicalDevice, VkSurfaceKHR surface,
                                                                           uint32_t* pCount,
                                                                           VkSurfaceFormatKHR* pFormats) {
  if (surface && !surfacePlatformSupported(*fromHandle<Surface>(surface))) return VK_ERROR_SURFACE_LOST_KHR;
  return fillArray(pCount, pFormats, surfaceFormats());
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceSurfacePresentModesKHR(VkPhysicalDevice, VkSurfaceKHR surface,
                                                                                uint32_t* pCount,
                                                                                VkPresentModeKHR* pModes) {
  if (surface && !surfacePlatformSupported(*fromHandle<Surface>(surface))) return VK_ERROR_SURFACE_LOST_KHR;
  return fillArray(pCount, pModes, surfacePresentModes());
}

// VK_KHR_get_surface_capabilities2: the same answers through extensible structs.
VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceSurfaceCapabilities2KHR(
    VkPhysicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR* pSurfaceInfo, VkSurfaceCapabilities2KHR* pCapabilities) {
  // VK_KHR_surface_protected_capabilities: no protected memory, so no protected swapchains.
  for (auto* next = static_cast<VkBaseOutStructure*>(pCapabilities->pNext); next; next = next->pNext)
    if (next->sType == VK_STRUCTURE_TYPE_SURFACE_PROTECTED_CAPABILITIES_KHR)
      reinterpret_cast<VkSurfaceProtectedCapabilitiesKHR*>(next)->supportsProtected = VK_FALSE;
  return surfaceCapabilities(*fromHandle<Surface>(pSurfaceInfo->surface), &pCapabilities->surfaceCapabilities);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceSurfaceFormats2KHR(
    VkPhysicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR* pSurfaceInfo, uint32_t* pCount,
    VkSurfaceFormat2KHR* pFormats) {
  if (pSurfaceInfo->surface && !surfacePlatformSupported(*fromHandle<Surface>(pSurfaceInfo->surface)))
    return VK_ERROR_SURFACE_LOST_KHR;
  auto formats = surfaceFormats();
  if (!pFormats) {
    *pCount = uint32_t(formats.size());
    return VK_SUCCESS;
  }
  const uint32_t n = std::min<uint32_t>(*pCount, uint32_t(formats.size()));
  for (uint32_t i = 0; i < n; ++i) pFormats[i].surfaceFormat = formats[i];
  *pCount = n;
  return n < formats.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDevicePresentRectanglesKHR(VkPhysicalDevice, VkSurfaceKHR surface,
                                                                              uint32_t* pRectCount, VkRect2D* pRects) {
  VkSurfaceCapabilitiesKHR caps;
  if (VkResult r = surfaceCapabilities(*fromHandle<Surface>(surface), &caps); r != VK_SUCCESS) return r;
  // A surface without a size of its own may show any part up to the largest extent.
  const VkExtent2D extent = caps.currentExtent.width == 0xFFFFFFFFu ? caps.maxImageExtent : caps.currentExtent;
  const VkRect2D rect{{0, 0}, extent};
  return fillArray(pRectCount, pRects, std::span<const VkRect2D>(&rect, 1));
}

}  // extern "C"
