// VK_KHR_xlib_surface: surfaces keep the application's Display and Window (laid out as the
// loader's VkIcdSurfaceXlib); everything else goes through the Display's xcb connection, which
// Xlib shares (libxcb is thread-safe). Only this file sees Xlib's headers and their macros
// (None, Bool, Status, ...): the platform macro is defined here, before any include.
#define VK_USE_PLATFORM_XLIB_KHR
#include "wsi_xlib.h"

#include <X11/Xlib-xcb.h>

#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "wsi_surface.h"

namespace tessera {
namespace {

const VkIcdSurfaceXlib& xlibOf(const Surface& s) { return reinterpret_cast<const VkIcdSurfaceXlib&>(s); }

}  // namespace

bool isXlibSurface(const Surface& surface) { return surface.base.platform == VK_ICD_WSI_PLATFORM_XLIB; }

xcb_connection_t* xlibConnection(const Surface& surface) { return XGetXCBConnection(xlibOf(surface).dpy); }

uint32_t xlibWindow(const Surface& surface) { return uint32_t(xlibOf(surface).window); }

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateXlibSurfaceKHR(VkInstance instance,
                                                             const VkXlibSurfaceCreateInfoKHR* pCreateInfo,
                                                             const VkAllocationCallbacks* pAllocator,
                                                             VkSurfaceKHR* pSurface) {
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, fromHandle<Instance>(instance)->allocator());
  auto* s = hostNew<VkIcdSurfaceXlib>(a, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!s) return VK_ERROR_OUT_OF_HOST_MEMORY;
  s->base.platform = VK_ICD_WSI_PLATFORM_XLIB;
  s->dpy = pCreateInfo->dpy;
  s->window = pCreateInfo->window;
  *pSurface = reinterpret_cast<VkSurfaceKHR>(s);
  return VK_SUCCESS;
}

VKAPI_ATTR VkBool32 VKAPI_CALL tessera_vkGetPhysicalDeviceXlibPresentationSupportKHR(VkPhysicalDevice,
                                                                                    uint32_t queueFamilyIndex, Display*,
                                                                                    VisualID) {
  return queueFamilyIndex == 0;  // the one queue family presents; the visual is checked per window
}

}  // extern "C"
