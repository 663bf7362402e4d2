// Swapchain creation, image acquisition and presentation.
#include "wsi_swapchain.h"

#include <algorithm>
#include <unordered_map>

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "queue.h"
#include "resources.h"
#include "sync.h"
#include "tessera/log.h"
#include "wsi_capture.h"
#include "wsi_surface.h"

namespace tessera {
namespace {

// The swapchain presenting to each surface that is not retired (spec: a surface has at most one;
// another is VK_ERROR_NATIVE_WINDOW_IN_USE_KHR). Kept here rather than in the surface, which may
// be the loader's own struct.
std::mutex gSurfacesMutex;
std::unordered_map<const Surface*, Swapchain*> gSurfaceSwapchains;

// What the presentation engine does with each image: the capture when its frame is selected,
// the copy into the window for a window's surface.
void outputImage(Swapchain& sc, const Presenter::Request& r) {
  const Image& image = *fromHandle<Image>(sc.images[r.image]);
  const SubresourceView v = image.view(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  if (sc.capture && sc.capture->frames.contains(r.frame))
    writeCapturePng(captureFileName(sc.capture->dir, r.frame), v.data, v.extent.width, v.extent.height, v.rowPitch,
                    sc.format);
  if (sc.window) {
    {
      std::lock_guard lock(sc.mutex);
      if (sc.lost) return;
    }
    sc.window->show(v.data, v.extent.width, v.extent.height, v.rowPitch, sc.format);
    // Asked here, off the application's thread, rather than at every acquire.
    const WindowState state = sc.window->windowState(v.extent.width, v.extent.height);
    if (state != WindowState::Same) {
      {
        std::lock_guard lock(sc.mutex);
        (state == WindowState::Gone ? sc.lost : sc.suboptimal) = true;
      }
      sc.changed.notify_all();  // waiting acquires return VK_ERROR_SURFACE_LOST_KHR
    }
  }
}

void releaseImage(Swapchain& sc, uint32_t index) {
  {
    std::lock_guard lock(sc.mutex);
    sc.states[index] = Swapchain::ImageState::Available;
    sc.available.push_back(index);
    --sc.inFlight;
  }
  sc.changed.notify_all();
}

// Spec "VkSwapchainCreateInfoKHR" valid usage against the surface's capabilities: an invalid
// request gets an error and a message instead of a swapchain that cannot work.
const char* invalidCreateInfo(const VkSwapchainCreateInfoKHR& ci, const VkSurfaceCapabilitiesKHR& caps) {
  // VK_KHR_swapchain_mutable_format is the only flag: split-instance and protected swapchains
  // are not offered.
  if (ci.flags & ~VkSwapchainCreateFlagsKHR(VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR))
    return "only VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR is supported among swapchain create flags";
  if (ci.minImageCount < caps.minImageCount || ci.minImageCount > caps.maxImageCount)
    return "minImageCount is outside the surface's range";
  if (ci.imageExtent.width < caps.minImageExtent.width || ci.imageExtent.height < caps.minImageExtent.height ||
      ci.imageExtent.width > caps.maxImageExtent.width || ci.imageExtent.height > caps.maxImageExtent.height)
    return "imageExtent is outside the surface's range";
  if (ci.imageArrayLayers < 1 || ci.imageArrayLayers > caps.maxImageArrayLayers) return "imageArrayLayers is not supported";
  if (!ci.imageUsage || (ci.imageUsage & ~caps.supportedUsageFlags)) return "imageUsage is not supported";
  if (ci.preTransform != VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR) return "preTransform is not supported";
  if (!(ci.compositeAlpha & caps.supportedCompositeAlpha)) return "compositeAlpha is not supported";
  auto formats = surfaceFormats();
  if (std::none_of(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR& f) {
        return f.format == ci.imageFormat && f.colorSpace == ci.imageColorSpace;
      }))
    return "imageFormat and imageColorSpace are not a supported pair";
  auto modes = surfacePresentModes();
  if (std::find(modes.begin(), modes.end(), ci.presentMode) == modes.end()) return "presentMode is not supported";
  return nullptr;
}

// Creates the images (and their memory) of `sc`; false when out of memory.
bool createImages(Swapchain& sc, const VkSwapchainCreateInfoKHR& ci) {
  const VkDevice device = toHandle<VkDevice>(sc.device);
  VkImageFormatListCreateInfo formatList{};
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  if (ci.flags & VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR) {
    // VK_KHR_swapchain_mutable_format: views of the images may have the formats of the
    // VkImageFormatListCreateInfo the application chains (required with the flag), as for any
    // MUTABLE_FORMAT image; the presentation engine still reads the bytes as imageFormat.
    ici.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    for (auto* s = static_cast<const VkBaseInStructure*>(ci.pNext); s; s = s->pNext)
      if (s->sType == VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO)
        formatList = *reinterpret_cast<const VkImageFormatListCreateInfo*>(s);
    formatList.pNext = nullptr;
    if (formatList.sType == VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO) ici.pNext = &formatList;
  }
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = ci.imageFormat;
  ici.extent = {ci.imageExtent.width, ci.imageExtent.height, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = ci.imageArrayLayers;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = ci.imageUsage;
  ici.sharingMode = ci.imageSharingMode;
  ici.queueFamilyIndexCount = ci.queueFamilyIndexCount;
  ici.pQueueFamilyIndices = ci.pQueueFamilyIndices;
  ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  for (uint32_t i = 0; i < ci.minImageCount; ++i) {
    VkImage image = VK_NULL_HANDLE;
    if (tessera_vkCreateImage(device, &ici, sc.allocator, &image) != VK_SUCCESS) return false;
    sc.images.push_back(image);
    VkMemoryRequirements req;
    tessera_vkGetImageMemoryRequirements(device, image, &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, 0};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (tessera_vkAllocateMemory(device, &mai, sc.allocator, &memory) != VK_SUCCESS) return false;
    sc.memories.push_back(memory);
    if (tessera_vkBindImageMemory(device, image, memory, 0) != VK_SUCCESS) return false;
  }
  return true;
}

void destroySwapchain(Swapchain* sc) {
  {
    // Presents still on the queue or in the presentation engine read these images.
    std::unique_lock lock(sc->mutex);
    sc->changed.wait(lock, [&] { return sc->inFlight == 0; });
  }
  sc->presenter.reset();
  const VkDevice device = toHandle<VkDevice>(sc->device);
  for (VkImage image : sc->images) tessera_vkDestroyImage(device, image, sc->allocator);
  for (VkDeviceMemory memory : sc->memories) tessera_vkFreeMemory(device, memory, sc->allocator);
  {
    std::lock_guard lock(gSurfacesMutex);
    auto it = gSurfaceSwapchains.find(sc->surface);
    if (it != gSurfaceSwapchains.end() && it->second == sc) gSurfaceSwapchains.erase(it);
  }
  const VkAllocationCallbacks* a = sc->allocator;
  hostDelete(a, sc);
}

void retire(Swapchain* sc) {
  {
    std::lock_guard lock(sc->mutex);
    sc->retired = true;
  }
  sc->changed.notify_all();  // waiting acquires return VK_ERROR_OUT_OF_DATE_KHR
}

VkResult acquire(Device* dev, Swapchain* sc, uint64_t timeout, VkSemaphore semaphore, VkFence fence, uint32_t* pIndex) {
  std::unique_lock lock(sc->mutex);
  auto ready = [&] { return sc->retired || sc->lost || !sc->available.empty(); };
  if (!ready()) {
    if (timeout == 0) return VK_NOT_READY;
    if (timeout == UINT64_MAX && sc->inFlight == 0 && !sc->lost) {
      // Every image is the application's and none is coming back: waiting forever would hang
      // (the spec forbids an infinite timeout here; answer instead of blocking).
      reportError(dev->instance, VK_OBJECT_TYPE_SWAPCHAIN_KHR, reinterpret_cast<uint64_t>(sc),
                  "vkAcquireNextImageKHR: every image is acquired and none is being presented; an infinite "
                  "timeout would never end");
      return VK_TIMEOUT;
    }
    if (timeout == UINT64_MAX) sc->changed.wait(lock, ready);
    else if (!sc->changed.wait_until(lock, deadlineFor(timeout), ready)) return VK_TIMEOUT;
  }
  if (sc->retired) return VK_ERROR_OUT_OF_DATE_KHR;
  if (sc->lost) return VK_ERROR_SURFACE_LOST_KHR;
  const uint32_t index = sc->available.front();
  sc->available.pop_front();
  sc->states[index] = Swapchain::ImageState::Acquired;
  const VkResult result = sc->suboptimal ? VK_SUBOPTIMAL_KHR : VK_SUCCESS;
  lock.unlock();
  // The presentation engine has finished with the image: the acquire is complete now.
  if (semaphore) fromHandle<Semaphore>(semaphore)->signal(1);
  if (fence) fromHandle<Fence>(fence)->signal();
  *pIndex = index;
  return result;
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR* pCreateInfo,
                                                           const VkAllocationCallbacks* pAllocator,
                                                           VkSwapchainKHR* pSwapchain) {
  Device* dev = fromHandle<Device>(device);
  const Surface* surface = fromHandle<Surface>(pCreateInfo->surface);
  Swapchain* old = fromHandle<Swapchain>(pCreateInfo->oldSwapchain);
  // Spec: oldSwapchain is retired by this call, even if creating the new one fails.
  if (old) retire(old);
  VkSurfaceCapabilitiesKHR caps;
  if (VkResult r = surfaceCapabilities(*surface, &caps); r != VK_SUCCESS) return r;
  if (const char* why = invalidCreateInfo(*pCreateInfo, caps)) {
    reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device), "vkCreateSwapchainKHR: %s", why);
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  {
    std::lock_guard lock(gSurfacesMutex);
    auto it = gSurfaceSwapchains.find(surface);
    if (it != gSurfaceSwapchains.end() && it->second != old) return VK_ERROR_NATIVE_WINDOW_IN_USE_KHR;
  }
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, dev->allocator());
  Swapchain* sc = hostNew<Swapchain>(a, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!sc) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (a) {
    sc->allocatorStorage = *a;
    sc->allocator = &sc->allocatorStorage;
  }
  sc->device = dev;
  sc->surface = surface;
  sc->format = pCreateInfo->imageFormat;
  sc->extent = pCreateInfo->imageExtent;
  sc->presentMode = pCreateInfo->presentMode;
  bool ok = false;
  try {
    sc->capture = captureSettingsFromEnvironment();
    sc->window = createWindowOutput(*surface, sc->presentMode, pCreateInfo->compositeAlpha);
    ok = createImages(*sc, *pCreateInfo);
    sc->states.assign(sc->images.size(), Swapchain::ImageState::Available);
    for (uint32_t i = 0; i < sc->images.size(); ++i) sc->available.push_back(i);
    sc->presenter = std::make_unique<Presenter>(
        sc->presentMode == VK_PRESENT_MODE_MAILBOX_KHR, [sc](const Presenter::Request& r) { outputImage(*sc, r); },
        [sc](uint32_t image) { releaseImage(*sc, image); });
    ok = ok && sc->presenter->started();
  } catch (const std::bad_alloc&) {
    ok = false;
  }
  if (!ok) {
    destroySwapchain(sc);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  // The window went away since its capabilities were asked (a Wayland compositor that is gone).
  if (sc->window && sc->window->windowState(sc->extent.width, sc->extent.height) == WindowState::Gone) {
    destroySwapchain(sc);
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  {
    std::lock_guard lock(gSurfacesMutex);
    gSurfaceSwapchains[surface] = sc;
  }
  *pSwapchain = toHandle<VkSwapchainKHR>(sc);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroySwapchainKHR(VkDevice, VkSwapchainKHR swapchain,
                                                        const VkAllocationCallbacks*) {
  if (swapchain) destroySwapchain(fromHandle<Swapchain>(swapchain));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetSwapchainImagesKHR(VkDevice, VkSwapchainKHR swapchain, uint32_t* pCount,
                                                              VkImage* pImages) {
  const Swapchain& sc = *fromHandle<Swapchain>(swapchain);
  const uint32_t total = uint32_t(sc.images.size());
  if (!pImages) {
    *pCount = total;
    return VK_SUCCESS;
  }
  const uint32_t n = std::min(*pCount, total);
  std::copy_n(sc.images.begin(), n, pImages);
  *pCount = n;
  return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkAcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain, uint64_t timeout,
                                                            VkSemaphore semaphore, VkFence fence, uint32_t* pImageIndex) {
  return acquire(fromHandle<Device>(device), fromHandle<Swapchain>(swapchain), timeout, semaphore, fence, pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkAcquireNextImage2KHR(VkDevice device, const VkAcquireNextImageInfoKHR* pInfo,
                                                             uint32_t* pImageIndex) {
  return acquire(fromHandle<Device>(device), fromHandle<Swapchain>(pInfo->swapchain), pInfo->timeout,
                 pInfo->semaphore, pInfo->fence, pImageIndex);
}

// A VkPresentRegionsKHR in the chain (VK_KHR_incremental_present) is left alone: its rectangles
// are a hint the presentation engine may ignore, and every present here sends the whole image.
VKAPI_ATTR VkResult VKAPI_CALL tessera_vkQueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* pPresentInfo) {
  Queue* q = fromHandle<Queue>(queue);
  Device* dev = q->device;
  struct Item {
    Swapchain* swapchain;
    Presenter::Request request;
  };
  std::vector<Item> items;
  std::vector<SemaphoreOp> waits;
  VkResult overall = VK_SUCCESS;
  try {
    for (uint32_t i = 0; i < pPresentInfo->waitSemaphoreCount; ++i)
      waits.push_back({fromHandle<Semaphore>(pPresentInfo->pWaitSemaphores[i]), 1});
    for (uint32_t i = 0; i < pPresentInfo->swapchainCount; ++i) {
      Swapchain* sc = fromHandle<Swapchain>(pPresentInfo->pSwapchains[i]);
      const uint32_t index = pPresentInfo->pImageIndices[i];
      VkResult result = VK_SUCCESS;
      {
        std::lock_guard lock(sc->mutex);
        if (index >= sc->states.size() || sc->states[index] != Swapchain::ImageState::Acquired) {
          result = VK_ERROR_OUT_OF_DATE_KHR;
        } else {
          // A retired swapchain still presents the images the application acquired from it.
          sc->states[index] = Swapchain::ImageState::Presented;
          ++sc->inFlight;
          items.push_back({sc, {index, ++dev->framesPresented}});
          if (sc->lost) result = VK_ERROR_SURFACE_LOST_KHR;
          else if (sc->suboptimal) result = VK_SUBOPTIMAL_KHR;
        }
      }
      if (result == VK_ERROR_OUT_OF_DATE_KHR)
        reportError(dev->instance, VK_OBJECT_TYPE_SWAPCHAIN_KHR, reinterpret_cast<uint64_t>(sc),
                    "vkQueuePresentKHR: image %u of the swapchain is not acquired", index);
      // An error outranks VK_SUBOPTIMAL_KHR, which outranks success.
      if (result < 0 ? overall >= 0 : (result != VK_SUCCESS && overall == VK_SUCCESS)) overall = result;
      if (pPresentInfo->pResults) pPresentInfo->pResults[i] = result;
    }
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  // The images go to the presentation engines in queue order, after the waits.
  VkResult r = queueHostStep(q, std::move(waits), [items] {
    for (const Item& item : items) item.swapchain->presenter->present(item.request);
  });
  if (r != VK_SUCCESS) {
    for (const Item& item : items) releaseImage(*item.swapchain, item.request.image);
    return r;
  }
  return overall;
}

// Device groups (core 1.1) with one device: every present is local.
VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetDeviceGroupPresentCapabilitiesKHR(
    VkDevice, VkDeviceGroupPresentCapabilitiesKHR* pCapabilities) {
  std::fill(std::begin(pCapabilities->presentMask), std::end(pCapabilities->presentMask), 0u);
  pCapabilities->presentMask[0] = 1;
  pCapabilities->modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetDeviceGroupSurfacePresentModesKHR(VkDevice, VkSurfaceKHR surface,
                                                                             VkDeviceGroupPresentModeFlagsKHR* pModes) {
  if (!surfacePlatformSupported(*fromHandle<Surface>(surface))) return VK_ERROR_SURFACE_LOST_KHR;
  *pModes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

}  // extern "C"
