#include "scene_window.h"

#define VK_USE_PLATFORM_XCB_KHR
#include <vulkan/vulkan.h>
#include <xcb/xcb.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

// Says what failed and gives the demo's failure status.
int fail(const char* what, VkResult r = VK_SUCCESS) {
  std::fprintf(stderr, "scene window: %s failed (%d)\n", what, int(r));
  return 1;
}

// The Vulkan objects of one window, destroyed in reverse order whatever happened.
struct Presenter {
  xcb_connection_t* connection = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  VkBuffer staging = VK_NULL_HANDLE;
  VkDeviceMemory stagingMemory = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkSemaphore acquired = VK_NULL_HANDLE;
  std::vector<VkSemaphore> rendered;  // one per swapchain image: reused only when that image is
  ~Presenter() {
    if (device) {
      vkDeviceWaitIdle(device);
      for (VkSemaphore s : rendered) vkDestroySemaphore(device, s, nullptr);
      vkDestroySemaphore(device, acquired, nullptr);
      vkDestroyFence(device, fence, nullptr);
      vkDestroyCommandPool(device, pool, nullptr);
      vkDestroyBuffer(device, staging, nullptr);
      vkFreeMemory(device, stagingMemory, nullptr);
      vkDestroySwapchainKHR(device, swapchain, nullptr);
      vkDestroyDevice(device, nullptr);
    }
    if (instance) {
      vkDestroySurfaceKHR(instance, surface, nullptr);
      vkDestroyInstance(instance, nullptr);
    }
    if (connection) xcb_disconnect(connection);
  }
};

void imageBarrier(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                  VkAccessFlags dstAccess, VkPipelineStageFlags srcStage, VkPipelineStageFlags dstStage) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = srcAccess;
  b.dstAccessMask = dstAccess;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

}  // namespace

int showSceneInWindow(const uint8_t* rgba, uint32_t w, uint32_t h, double seconds) {
  Presenter p;
  p.connection = xcb_connect(nullptr, nullptr);
  if (xcb_connection_has_error(p.connection)) return fail("connecting to $DISPLAY");
  const xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(p.connection)).data;
  const xcb_window_t window = xcb_generate_id(p.connection);
  const uint32_t values[] = {screen->black_pixel, XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_STRUCTURE_NOTIFY};
  xcb_create_window(p.connection, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, uint16_t(w), uint16_t(h), 0,
                    XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
  const char title[] = "Tessera: scene demo";
  xcb_change_property(p.connection, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                      sizeof title - 1, title);
  xcb_map_window(p.connection, window);
  xcb_flush(p.connection);

  const char* instanceExtensions[] = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_EXTENSION_NAME};
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tessera-scene-demo-window";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  ici.enabledExtensionCount = 2;
  ici.ppEnabledExtensionNames = instanceExtensions;
  if (VkResult r = vkCreateInstance(&ici, nullptr, &p.instance); r != VK_SUCCESS) return fail("vkCreateInstance", r);
  uint32_t count = 1;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  if (vkEnumeratePhysicalDevices(p.instance, &count, &pd) < 0 || count == 0) return fail("finding a device");
  VkXcbSurfaceCreateInfoKHR sci{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
  sci.connection = p.connection;
  sci.window = window;
  if (VkResult r = vkCreateXcbSurfaceKHR(p.instance, &sci, nullptr, &p.surface); r != VK_SUCCESS)
    return fail("vkCreateXcbSurfaceKHR", r);
  VkBool32 supported = VK_FALSE;
  vkGetPhysicalDeviceSurfaceSupportKHR(pd, 0, p.surface, &supported);
  if (!supported) return fail("presenting from queue family 0");

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  const char* deviceExtensions[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = 1;
  dci.ppEnabledExtensionNames = deviceExtensions;
  if (VkResult r = vkCreateDevice(pd, &dci, nullptr, &p.device); r != VK_SUCCESS) return fail("vkCreateDevice", r);
  VkQueue queue;
  vkGetDeviceQueue(p.device, 0, 0, &queue);

  // The picture's bytes go to the window unchanged: a UNORM format, RGBA if offered, else BGRA
  // with the channels swapped on the CPU.
  VkSurfaceCapabilitiesKHR caps;
  vkGetPhysicalDeviceSurfaceCapabilitiesKHR(pd, p.surface, &caps);
  uint32_t formatCount = 0;
  vkGetPhysicalDeviceSurfaceFormatsKHR(pd, p.surface, &formatCount, nullptr);
  std::vector<VkSurfaceFormatKHR> formats(formatCount);
  vkGetPhysicalDeviceSurfaceFormatsKHR(pd, p.surface, &formatCount, formats.data());
  VkSurfaceFormatKHR format{VK_FORMAT_UNDEFINED, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR};
  for (VkFormat wanted : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM})
    for (const VkSurfaceFormatKHR& f : formats)
      if (format.format == VK_FORMAT_UNDEFINED && f.format == wanted) format = f;
  if (format.format == VK_FORMAT_UNDEFINED) return fail("finding an 8-bit UNORM surface format");
  VkExtent2D extent = caps.currentExtent;
  if (extent.width == 0xFFFFFFFFu) extent = {w, h};
  VkSwapchainCreateInfoKHR swci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  swci.surface = p.surface;
  swci.minImageCount = std::max(caps.minImageCount, 2u);
  if (caps.maxImageCount) swci.minImageCount = std::min(swci.minImageCount, caps.maxImageCount);
  swci.imageFormat = format.format;
  swci.imageColorSpace = format.colorSpace;
  swci.imageExtent = extent;
  swci.imageArrayLayers = 1;
  swci.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  swci.preTransform = caps.currentTransform;
  swci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  swci.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always offered
  swci.clipped = VK_TRUE;
  if (VkResult r = vkCreateSwapchainKHR(p.device, &swci, nullptr, &p.swapchain); r != VK_SUCCESS)
    return fail("vkCreateSwapchainKHR", r);
  uint32_t imageCount = 0;
  vkGetSwapchainImagesKHR(p.device, p.swapchain, &imageCount, nullptr);
  std::vector<VkImage> images(imageCount);
  vkGetSwapchainImagesKHR(p.device, p.swapchain, &imageCount, images.data());

  // The picture in a host-visible buffer, in the swapchain's channel order.
  const VkDeviceSize size = VkDeviceSize(w) * h * 4;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = size;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  if (VkResult r = vkCreateBuffer(p.device, &bci, nullptr, &p.staging); r != VK_SUCCESS) return fail("vkCreateBuffer", r);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(p.device, p.staging, &req);
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  const VkMemoryPropertyFlags hostFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = 0;
  while (type < mp.memoryTypeCount && !((req.memoryTypeBits >> type & 1) && (mp.memoryTypes[type].propertyFlags & hostFlags) == hostFlags)) ++type;
  if (type == mp.memoryTypeCount) return fail("finding host-visible memory");
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
  if (VkResult r = vkAllocateMemory(p.device, &mai, nullptr, &p.stagingMemory); r != VK_SUCCESS) return fail("vkAllocateMemory", r);
  vkBindBufferMemory(p.device, p.staging, p.stagingMemory, 0);
  uint8_t* mapped = nullptr;
  if (VkResult r = vkMapMemory(p.device, p.stagingMemory, 0, size, 0, reinterpret_cast<void**>(&mapped)); r != VK_SUCCESS)
    return fail("vkMapMemory", r);
  std::memcpy(mapped, rgba, size_t(size));
  if (format.format == VK_FORMAT_B8G8R8A8_UNORM)
    for (VkDeviceSize i = 0; i < size; i += 4) std::swap(mapped[i], mapped[i + 2]);

  // One command buffer per swapchain image: clear it (the window may be larger than the
  // picture), copy the picture in, hand it to the presentation engine.
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  if (VkResult r = vkCreateCommandPool(p.device, &cpci, nullptr, &p.pool); r != VK_SUCCESS) return fail("vkCreateCommandPool", r);
  std::vector<VkCommandBuffer> commands(imageCount);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, p.pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, imageCount};
  if (VkResult r = vkAllocateCommandBuffers(p.device, &cbai, commands.data()); r != VK_SUCCESS)
    return fail("vkAllocateCommandBuffers", r);
  for (uint32_t i = 0; i < imageCount; ++i) {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(commands[i], &begin);
    imageBarrier(commands[i], images[i], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    const VkClearColorValue black{};
    const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(commands[i], images[i], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &black, 1, &all);
    imageBarrier(commands[i], images[i], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkBufferImageCopy copy{0, w, h, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                           {std::min(w, extent.width), std::min(h, extent.height), 1}};
    vkCmdCopyBufferToImage(commands[i], p.staging, images[i], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    imageBarrier(commands[i], images[i], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                 VK_ACCESS_TRANSFER_WRITE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    vkEndCommandBuffer(commands[i]);
  }

  VkSemaphoreCreateInfo semi{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  vkCreateSemaphore(p.device, &semi, nullptr, &p.acquired);
  vkCreateFence(p.device, &fci, nullptr, &p.fence);
  p.rendered.resize(imageCount);
  for (VkSemaphore& s : p.rendered) vkCreateSemaphore(p.device, &semi, nullptr, &s);

  // About 30 frames a second until the time is up; the window closing or changing size ends
  // the show early (the picture was written to the PNG either way).
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    for (xcb_generic_event_t* e; (e = xcb_poll_for_event(p.connection)) != nullptr;) std::free(e);
    uint32_t index = 0;
    VkResult r = vkAcquireNextImageKHR(p.device, p.swapchain, UINT64_MAX, p.acquired, VK_NULL_HANDLE, &index);
    if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) break;
    const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.waitSemaphoreCount = 1;
    si.pWaitSemaphores = &p.acquired;
    si.pWaitDstStageMask = &waitStage;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &commands[index];
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &p.rendered[index];
    if ((r = vkQueueSubmit(queue, 1, &si, p.fence)) != VK_SUCCESS) return fail("vkQueueSubmit", r);
    // One frame at a time: the acquire semaphore and the command buffers are free again after this.
    vkWaitForFences(p.device, 1, &p.fence, VK_TRUE, UINT64_MAX);
    vkResetFences(p.device, 1, &p.fence);
    VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    pi.waitSemaphoreCount = 1;
    pi.pWaitSemaphores = &p.rendered[index];
    pi.swapchainCount = 1;
    pi.pSwapchains = &p.swapchain;
    pi.pImageIndices = &index;
    r = vkQueuePresentKHR(queue, &pi);
    if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(33));
  }
  return 0;
}
