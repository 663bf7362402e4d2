// VkSwapchainKHR (VK_KHR_swapchain): images owned by the swapchain, handed to the application
// by vkAcquireNextImageKHR and to the presentation engine (wsi_presenter.h) by
// vkQueuePresentKHR, in the queue's order.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>
#include <vulkan/vulkan_core.h>

#include "wsi_capture.h"
#include "wsi_output.h"
#include "wsi_presenter.h"

namespace tessera {

struct Device;
struct Surface;

struct Swapchain {
  enum class ImageState : uint8_t {
    Available,  // the presentation engine is done with it; may be acquired
    Acquired,   // the application's
    Presented,  // queued for presentation or being read out
  };

  Device* device = nullptr;
  const Surface* surface = nullptr;
  const VkAllocationCallbacks* allocator = nullptr;
  VkAllocationCallbacks allocatorStorage{};
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  VkPresentModeKHR presentMode = VK_PRESENT_MODE_FIFO_KHR;
  std::vector<VkImage> images;
  std::vector<VkDeviceMemory> memories;
  std::optional<CaptureSettings> capture;  // TESSERA_CAPTURE_* when the swapchain was created
  std::unique_ptr<WindowOutput> window;    // a window's output, used by the presenter only

  std::mutex mutex;
  std::condition_variable changed;  // an image became available, or a present finished
  std::vector<ImageState> states;
  std::deque<uint32_t> available;   // in the order they became available
  uint32_t inFlight = 0;            // presented images not yet given back
  bool retired = false;             // replaced by a newer swapchain (oldSwapchain)
  // The window no longer has the swapchain's size: acquire and present say
  // VK_SUBOPTIMAL_KHR (presenting still works, clipped), so the program can recreate it.
  bool suboptimal = false;
  // The window or its server is gone: acquire and present say VK_ERROR_SURFACE_LOST_KHR
  // (presents still take their images, so the swapchain can be destroyed).
  bool lost = false;
  std::unique_ptr<Presenter> presenter;
};

}  // namespace tessera
