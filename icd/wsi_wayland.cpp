// VK_KHR_wayland_surface. Surfaces keep the application's wl_display and wl_surface (laid out
// as the loader's VkIcdSurfaceWayland). The output runs on the presenter's thread with an event
// queue of its own: its proxies (wrappers of the display and the surface, wl_shm, buffers,
// frame callbacks) deliver their events there, so nothing is dispatched on the application's
// queues and the application's threads never run Tessera's listeners.
//
// Faults: libwayland sends with MSG_NOSIGNAL (a dead compositor is an error, not a SIGPIPE),
// and every wait polls the socket with a time limit, so a compositor that is gone or never
// answers (a hidden surface gets no frame callbacks) cannot hang the presenter.
#define VK_USE_PLATFORM_WAYLAND_KHR
#include "wsi_wayland.h"

#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "tessera/log.h"
#include "wsi_surface.h"

namespace tessera {
namespace {

const VkIcdSurfaceWayland& waylandOf(const Surface& s) { return reinterpret_cast<const VkIcdSurfaceWayland&>(s); }

// The longest wait for one event the presenter needs (a frame callback, a released buffer).
// A compositor does not repaint a hidden surface, so FIFO then presents about once a second
// rather than never.
constexpr int kEventWaitMs = 1000;
// Buffers in flight at most: one shown, one waiting for the next repaint, one being filled.
constexpr size_t kMaxBuffers = 3;

// Dispatches the events of `queue`, waiting up to timeoutMs for some to arrive (the read
// protocol of wl_display_prepare_read_queue, as several threads may read the display). 0 when
// nothing came in time, -1 when the connection failed.
int dispatchWithTimeout(wl_display* display, wl_event_queue* queue, int timeoutMs) {
  if (wl_display_dispatch_queue_pending(display, queue) < 0) return -1;
  while (wl_display_prepare_read_queue(display, queue) != 0)
    if (wl_display_dispatch_queue_pending(display, queue) < 0) return -1;
  // As wl_display_dispatch_queue does: a send that fails with EPIPE (the compositor closed the
  // connection) still reads, which picks up its last words and records the error.
  if (wl_display_flush(display) < 0 && errno != EAGAIN && errno != EPIPE) {
    wl_display_cancel_read(display);
    return -1;
  }
  pollfd p{wl_display_get_fd(display), POLLIN, 0};
  int ready;
  do ready = poll(&p, 1, timeoutMs);
  while (ready < 0 && errno == EINTR);
  if (ready <= 0) {
    wl_display_cancel_read(display);
    return ready;
  }
  if (wl_display_read_events(display) < 0) return -1;
  return wl_display_dispatch_queue_pending(display, queue) < 0 ? -1 : 1;
}

class WaylandOutput final : public WindowOutput {
 public:
  WaylandOutput(const VkIcdSurfaceWayland& s, VkPresentModeKHR mode, bool premultiplied)
      : display_(s.display),
        fifo_(mode == VK_PRESENT_MODE_FIFO_KHR || mode == VK_PRESENT_MODE_FIFO_RELAXED_KHR),
        shmFormat_(premultiplied ? WL_SHM_FORMAT_ARGB8888 : WL_SHM_FORMAT_XRGB8888) {
    queue_ = wl_display_create_queue(display_);
    displayWrapper_ = static_cast<wl_display*>(wl_proxy_create_wrapper(display_));
    surfaceWrapper_ = static_cast<wl_surface*>(wl_proxy_create_wrapper(s.surface));
    if (!queue_ || !displayWrapper_ || !surfaceWrapper_) {
      failed_ = true;
      return;
    }
    wl_proxy_set_queue(reinterpret_cast<wl_proxy*>(displayWrapper_), queue_);
    wl_proxy_set_queue(reinterpret_cast<wl_proxy*>(surfaceWrapper_), queue_);
    registry_ = wl_display_get_registry(displayWrapper_);
    static const wl_registry_listener kRegistry = {
        [](void* self, wl_registry* registry, uint32_t name, const char* interface, uint32_t) {
          auto* out = static_cast<WaylandOutput*>(self);
          if (!out->shm_ && std::strcmp(interface, wl_shm_interface.name) == 0)
            out->shm_ = static_cast<wl_shm*>(wl_registry_bind(registry, name, &wl_shm_interface, 1));
        },
        [](void*, wl_registry*, uint32_t) {}};
    wl_registry_add_listener(registry_, &kRegistry, this);
    // Every compositor offers wl_shm and, in it, XRGB8888 and ARGB8888 (the core protocol
    // requires both).
    if (!roundTrip() || !shm_) {
      if (!failed_) TESSERA_LOG(Warn, "wayland: the compositor offers no wl_shm");
      failed_ = true;
    }
  }

  ~WaylandOutput() override {
    if (frame_) wl_callback_destroy(frame_);
    for (Buffer& b : buffers_) destroy(b);
    if (shm_) wl_shm_destroy(shm_);
    if (registry_) wl_registry_destroy(registry_);
    if (surfaceWrapper_) wl_proxy_wrapper_destroy(surfaceWrapper_);
    if (displayWrapper_) wl_proxy_wrapper_destroy(displayWrapper_);
    wl_display_flush(display_);
    if (queue_) wl_event_queue_destroy(queue_);
  }

  void show(const uint8_t* pixels, uint32_t width, uint32_t height, size_t rowPitch, VkFormat format) override {
    if (failed_) return;
    // FIFO: the previous commit is on screen for at least one repaint before the next.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kEventWaitMs);
    while (frame_ && !failed_ && std::chrono::steady_clock::now() < deadline)
      if (dispatchWithTimeout(display_, queue_, kEventWaitMs) < 0) fail();
    if (frame_) {
      wl_callback_destroy(frame_);  // not repainted in time (hidden): stop waiting for it
      frame_ = nullptr;
    }
    Buffer* b = freeBuffer(width, height);
    if (!b) return;
    const bool sourceBgr = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
    for (uint32_t y = 0; y < height; ++y) {
      const uint8_t* src = pixels + y * rowPitch;
      uint8_t* dst = b->pixels + size_t(y) * width * 4;
      if (sourceBgr) {
        std::memcpy(dst, src, size_t(width) * 4);  // [AX]RGB8888 in memory: B, G, R, A or X
      } else {
        for (uint32_t x = 0; x < width; ++x, src += 4, dst += 4) {
          dst[0] = src[2];
          dst[1] = src[1];
          dst[2] = src[0];
          dst[3] = src[3];
        }
      }
    }
    b->busy = true;
    wl_surface_attach(surfaceWrapper_, b->buffer, 0, 0);
    if (wl_proxy_get_version(reinterpret_cast<wl_proxy*>(surfaceWrapper_)) >= WL_SURFACE_DAMAGE_BUFFER_SINCE_VERSION)
      wl_surface_damage_buffer(surfaceWrapper_, 0, 0, INT32_MAX, INT32_MAX);
    else
      wl_surface_damage(surfaceWrapper_, 0, 0, INT32_MAX, INT32_MAX);
    if (fifo_) {
      static const wl_callback_listener kFrame = {[](void* self, wl_callback* callback, uint32_t) {
        auto* out = static_cast<WaylandOutput*>(self);
        wl_callback_destroy(callback);
        out->frame_ = nullptr;
      }};
      frame_ = wl_surface_frame(surfaceWrapper_);
      wl_callback_add_listener(frame_, &kFrame, this);
    }
    wl_surface_commit(surfaceWrapper_);
    // EAGAIN: the socket is full; what is left goes out with the next flush.
    if (wl_display_flush(display_) < 0 && errno != EAGAIN) fail();
  }

  WindowState windowState(uint32_t, uint32_t) const override {
    // A Wayland surface has no size of its own (the swapchain's decides), so it is never resized.
    return failed_ || wl_display_get_error(display_) ? WindowState::Gone : WindowState::Same;
  }

 private:
  struct Buffer {
    wl_buffer* buffer = nullptr;
    uint8_t* pixels = nullptr;
    size_t size = 0;
    uint32_t width = 0, height = 0;
    bool busy = false;  // the compositor may read it (attached, not yet released)
  };

  // The connection failed. A failed send (EPIPE: the compositor is gone) is not yet an error
  // of the display for libwayland, which leaves that to the next read: read once, so that
  // wl_display_get_error says so to the surface queries (VK_ERROR_SURFACE_LOST_KHR) too.
  void fail() {
    failed_ = true;
    if (!wl_display_get_error(display_)) dispatchWithTimeout(display_, queue_, 100);
  }

  // wl_display_roundtrip_queue with a time limit: a compositor that stopped answering fails
  // swapchain creation instead of blocking it forever. False on failure or timeout.
  bool roundTrip() {
    bool done = false;
    wl_callback* sync = wl_display_sync(displayWrapper_);
    static const wl_callback_listener kDone = {[](void* done, wl_callback*, uint32_t) { *static_cast<bool*>(done) = true; }};
    wl_callback_add_listener(sync, &kDone, &done);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(5 * kEventWaitMs);
    while (!done && std::chrono::steady_clock::now() < deadline)
      if (dispatchWithTimeout(display_, queue_, kEventWaitMs) < 0) break;
    wl_callback_destroy(sync);
    return done;
  }

  static void destroy(Buffer& b) {
    if (b.buffer) wl_buffer_destroy(b.buffer);
    if (b.pixels) munmap(b.pixels, b.size);
    b = {};
  }

  // A width x height buffer the compositor is not reading: a released one, a new one, or
  // (all busy) one released within kEventWaitMs. Null when there is none or the connection
  // failed.
  Buffer* freeBuffer(uint32_t width, uint32_t height) {
    for (int attempt = 0; attempt < 2 && !failed_; ++attempt) {
      // Released buffers of another size (an older swapchain's) are no use any more.
      for (Buffer& b : buffers_)
        if (!b.busy && b.buffer && (b.width != width || b.height != height)) destroy(b);
      for (Buffer& b : buffers_)
        if (b.buffer && !b.busy) return &b;
      for (Buffer& b : buffers_)
        if (!b.buffer) return create(b, width, height) ? &b : nullptr;
      if (dispatchWithTimeout(display_, queue_, kEventWaitMs) < 0) fail();
    }
    return nullptr;  // the frame is dropped
  }

  bool create(Buffer& b, uint32_t width, uint32_t height) {
    const size_t size = size_t(width) * height * 4;
    const int fd = memfd_create("tessera-wl-shm", MFD_CLOEXEC);
    if (fd < 0) return false;
    void* p = ftruncate(fd, off_t(size)) == 0 ? mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (p == MAP_FAILED) {
      close(fd);
      return false;
    }
    wl_shm_pool* pool = wl_shm_create_pool(shm_, fd, int32_t(size));
    b.buffer = wl_shm_pool_create_buffer(pool, 0, int32_t(width), int32_t(height), int32_t(width * 4),
                                         shmFormat_);
    wl_shm_pool_destroy(pool);  // the buffer keeps the memory
    close(fd);
    static const wl_buffer_listener kRelease = {[](void* data, wl_buffer*) { static_cast<Buffer*>(data)->busy = false; }};
    wl_buffer_add_listener(b.buffer, &kRelease, &b);
    b.pixels = static_cast<uint8_t*>(p);
    b.size = size;
    b.width = width;
    b.height = height;
    return true;
  }

  wl_display* display_;  // the application's
  const bool fifo_;
  const uint32_t shmFormat_;  // wl_shm_format of the buffers
  wl_event_queue* queue_ = nullptr;
  wl_display* displayWrapper_ = nullptr;
  wl_surface* surfaceWrapper_ = nullptr;
  wl_registry* registry_ = nullptr;
  wl_shm* shm_ = nullptr;
  Buffer buffers_[kMaxBuffers];  // listeners point into it: never moves
  wl_callback* frame_ = nullptr;  // the last commit's frame callback, until it is done
  bool failed_ = false;
};

}  // namespace

bool isWaylandSurface(const Surface& surface) { return surface.base.platform == VK_ICD_WSI_PLATFORM_WAYLAND; }

bool waylandDisplayFailed(const Surface& surface) { return wl_display_get_error(waylandOf(surface).display) != 0; }

std::unique_ptr<WindowOutput> createWaylandOutput(const Surface& surface, VkPresentModeKHR mode, bool premultiplied) {
  return std::make_unique<WaylandOutput>(waylandOf(surface), mode, premultiplied);
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateWaylandSurfaceKHR(VkInstance instance,
                                                                const VkWaylandSurfaceCreateInfoKHR* pCreateInfo,
                                                                const VkAllocationCallbacks* pAllocator,
                                                                VkSurfaceKHR* pSurface) {
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, fromHandle<Instance>(instance)->allocator());
  auto* s = hostNew<VkIcdSurfaceWayland>(a, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!s) return VK_ERROR_OUT_OF_HOST_MEMORY;
  s->base.platform = VK_ICD_WSI_PLATFORM_WAYLAND;
  s->display = pCreateInfo->display;
  s->surface = pCreateInfo->surface;
  *pSurface = reinterpret_cast<VkSurfaceKHR>(s);
  return VK_SUCCESS;
}

VKAPI_ATTR VkBool32 VKAPI_CALL tessera_vkGetPhysicalDeviceWaylandPresentationSupportKHR(VkPhysicalDevice,
                                                                                       uint32_t queueFamilyIndex,
                                                                                       wl_display*) {
  return queueFamilyIndex == 0;  // the one queue family presents through wl_shm to any compositor
}

}  // extern "C"
