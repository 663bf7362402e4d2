// vk_icd.h declares VkIcdSurfaceXcb, and entrypoints.h this platform's commands, only with the
// platform macro, defined before any include.
#define VK_USE_PLATFORM_XCB_KHR
#include "wsi_xcb.h"

#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "tessera/log.h"
#include "wsi_surface.h"
#include "wsi_xlib.h"

namespace tessera {
namespace {

struct X11Window {
  xcb_connection_t* connection;
  xcb_window_t window;
};

// An xcb surface's own connection, or an Xlib Display's xcb connection (wsi_xlib.h).
X11Window windowOf(const Surface& s) {
  if (isXlibSurface(s)) return {xlibConnection(s), xlibWindow(s)};
  const auto& xcb = reinterpret_cast<const VkIcdSurfaceXcb&>(s);
  return {xcb.connection, xcb.window};
}

// The visual of `window` from the connection's setup (null if not found).
const xcb_visualtype_t* findVisual(xcb_connection_t* c, xcb_visualid_t id) {
  for (auto screens = xcb_setup_roots_iterator(xcb_get_setup(c)); screens.rem; xcb_screen_next(&screens))
    for (auto depths = xcb_screen_allowed_depths_iterator(screens.data); depths.rem; xcb_depth_next(&depths))
      for (auto visuals = xcb_depth_visuals_iterator(depths.data); visuals.rem; xcb_visualtype_next(&visuals))
        if (visuals.data->visual_id == id) return visuals.data;
  return nullptr;
}

uint8_t bitsPerPixel(xcb_connection_t* c, uint8_t depth) {
  const xcb_setup_t* setup = xcb_get_setup(c);
  for (auto f = xcb_setup_pixmap_formats_iterator(setup); f.rem; xcb_format_next(&f))
    if (f.data->depth == depth) return f.data->bits_per_pixel;
  return 0;
}

// Every request is sent checked and its error collected here: an unchecked request's error
// goes to the connection's event queue, which on an Xlib Display (VK_KHR_xlib_surface) Xlib
// reads, and Xlib's default error handler exits the program (a window destroyed mid-present
// would end it). Waits until the server has handled the request (a round trip); false on error.
bool check(xcb_connection_t* c, xcb_void_cookie_t cookie) {
  xcb_generic_error_t* error = xcb_request_check(c, cookie);
  std::free(error);
  return !error;
}

}  // namespace

bool isX11Surface(const Surface& surface) {
  return surface.base.platform == VK_ICD_WSI_PLATFORM_XCB || isXlibSurface(surface);
}

bool x11WindowExtent(const Surface& surface, VkExtent2D* out) {
  const X11Window s = windowOf(surface);
  xcb_get_geometry_reply_t* g = xcb_get_geometry_reply(s.connection, xcb_get_geometry(s.connection, s.window), nullptr);
  if (!g) return false;
  *out = {g->width, g->height};
  std::free(g);
  return true;
}

struct XcbOutput::State {
  xcb_connection_t* c = nullptr;
  xcb_window_t window = 0;
  xcb_gcontext_t gc = 0;
  uint8_t depth = 0;
  bool serverBgr = true;    // the server's pixels are B, G, R, X bytes (else R, G, B, X)
  uint32_t maxRequestBytes = 0;
  bool shmAvailable = false;
  xcb_shm_seg_t segment = 0;
  uint8_t* shared = nullptr;  // the attached segment
  size_t sharedSize = 0;
  std::vector<uint8_t> staging;  // PutImage's rows

  void detachShared() {
    if (!shared) return;
    check(c, xcb_shm_detach_checked(c, segment));  // the server lets go of it before the memory goes
    shmdt(shared);
    shared = nullptr;
    sharedSize = 0;
  }
  // A segment of at least `size` bytes attached to the server; false (and MIT-SHM off) when
  // that fails, e.g. for a server on another machine.
  bool ensureShared(size_t size) {
    if (sharedSize >= size) return true;
    detachShared();
    const int id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
    if (id < 0) return shmAvailable = false;
    void* p = shmat(id, nullptr, 0);
    if (p == reinterpret_cast<void*>(-1)) {
      shmctl(id, IPC_RMID, nullptr);
      return shmAvailable = false;
    }
    segment = xcb_generate_id(c);
    xcb_generic_error_t* error = xcb_request_check(c, xcb_shm_attach_checked(c, segment, uint32_t(id), 0));
    shmctl(id, IPC_RMID, nullptr);  // freed by the system once both sides have detached
    if (error) {
      std::free(error);
      shmdt(p);
      TESSERA_LOG(Info, "xcb: MIT-SHM attach failed; presenting with PutImage");
      return shmAvailable = false;
    }
    shared = static_cast<uint8_t*>(p);
    sharedSize = size;
    return true;
  }
  // One row in the server's byte order, X (alpha) opaque: the composite alpha is OPAQUE.
  // One row in the server's byte order, alpha opaque. As whole 32-bit texels (little-endian: byte
  // 0 is the low byte), with the swap decided once per row, so the compiler vectorizes the loop
  // (a byte loop with the test inside was 7% of a 200-FPS program's time).
  void convertRow(const uint8_t* src, uint8_t* dst, uint32_t width, bool sourceBgr) const {
    if (sourceBgr == serverBgr) {
      for (uint32_t x = 0; x < width; ++x) {
        uint32_t t;
        std::memcpy(&t, src + 4 * x, 4);
        t |= 0xFF000000u;
        std::memcpy(dst + 4 * x, &t, 4);
      }
      return;
    }
    for (uint32_t x = 0; x < width; ++x) {
      uint32_t t;
      std::memcpy(&t, src + 4 * x, 4);
      t = (t & 0xFF00u) | (t & 0xFFu) << 16 | (t >> 16 & 0xFFu) | 0xFF000000u;
      std::memcpy(dst + 4 * x, &t, 4);
    }
  }
};

std::unique_ptr<XcbOutput> XcbOutput::create(const Surface& surface) {
  const X11Window s = windowOf(surface);
  auto state = std::make_unique<State>();
  state->c = s.connection;
  state->window = s.window;
  xcb_get_geometry_reply_t* g = xcb_get_geometry_reply(s.connection, xcb_get_geometry(s.connection, s.window), nullptr);
  xcb_get_window_attributes_reply_t* a =
      xcb_get_window_attributes_reply(s.connection, xcb_get_window_attributes(s.connection, s.window), nullptr);
  const xcb_visualtype_t* visual = a ? findVisual(s.connection, a->visual) : nullptr;
  if (g) state->depth = g->depth;
  std::free(g);
  std::free(a);
  const bool lsbFirst = xcb_get_setup(s.connection)->image_byte_order == XCB_IMAGE_ORDER_LSB_FIRST;
  if (!visual || visual->_class != XCB_VISUAL_CLASS_TRUE_COLOR || bitsPerPixel(s.connection, state->depth) != 32 ||
      !lsbFirst || visual->green_mask != 0xFF00 ||
      !((visual->red_mask == 0xFF0000 && visual->blue_mask == 0xFF) || (visual->red_mask == 0xFF && visual->blue_mask == 0xFF0000))) {
    TESSERA_LOG(Warn, "xcb: window 0x%x has a visual Tessera cannot write (needs 32-bit 8:8:8 TrueColor)", s.window);
    return nullptr;
  }
  state->serverBgr = visual->red_mask == 0xFF0000;  // little-endian 0x00RRGGBB: bytes B, G, R, X
  state->maxRequestBytes = xcb_get_maximum_request_length(s.connection) * 4;
  // Only ask a server that has MIT-SHM: an extension request to a server without the
  // extension makes libxcb close the application's connection.
  const xcb_query_extension_reply_t* shm = xcb_get_extension_data(s.connection, &xcb_shm_id);
  if (shm && shm->present) {
    if (xcb_shm_query_version_reply_t* v =
            xcb_shm_query_version_reply(s.connection, xcb_shm_query_version(s.connection), nullptr)) {
      state->shmAvailable = true;
      std::free(v);
    }
  }
  state->gc = xcb_generate_id(s.connection);
  if (!check(s.connection, xcb_create_gc_checked(s.connection, state->gc, s.window, 0, nullptr))) return nullptr;
  return std::unique_ptr<XcbOutput>(new XcbOutput(std::move(state)));
}

XcbOutput::XcbOutput(std::unique_ptr<State> state) : state_(std::move(state)) {}

XcbOutput::~XcbOutput() {
  state_->detachShared();
  check(state_->c, xcb_free_gc_checked(state_->c, state_->gc));
}

bool XcbOutput::usesSharedMemory() const { return state_->shmAvailable; }

WindowState XcbOutput::windowState(uint32_t width, uint32_t height) const {
  xcb_get_geometry_reply_t* g = xcb_get_geometry_reply(state_->c, xcb_get_geometry(state_->c, state_->window), nullptr);
  const WindowState state = !g ? WindowState::Gone
                            : g->width == width && g->height == height ? WindowState::Same
                                                                       : WindowState::Resized;
  std::free(g);
  return state;
}

void XcbOutput::show(const uint8_t* pixels, uint32_t width, uint32_t height, size_t rowPitch, VkFormat format) {
  State& s = *state_;
  const bool sourceBgr = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
  const size_t rowBytes = size_t(width) * 4;
  if (s.shmAvailable && s.ensureShared(rowBytes * height)) {
    for (uint32_t y = 0; y < height; ++y) s.convertRow(pixels + y * rowPitch, s.shared + y * rowBytes, width, sourceBgr);
    // Checked: its round trip also means the server has read the segment, which may then be
    // written again.
    check(s.c, xcb_shm_put_image_checked(s.c, s.window, s.gc, uint16_t(width), uint16_t(height), 0, 0,
                                         uint16_t(width), uint16_t(height), 0, 0, s.depth, XCB_IMAGE_FORMAT_Z_PIXMAP,
                                         0, s.segment, 0));
    return;
  }
  // PutImage in bands that fit the server's request size (24 bytes of request header).
  const uint32_t rowsPerRequest = uint32_t(std::max<size_t>(1, (s.maxRequestBytes - 64) / rowBytes));
  s.staging.resize(rowBytes * std::min(rowsPerRequest, height));
  std::vector<xcb_void_cookie_t> sent;
  for (uint32_t y0 = 0; y0 < height; y0 += rowsPerRequest) {
    const uint32_t rows = std::min(rowsPerRequest, height - y0);
    for (uint32_t y = 0; y < rows; ++y)
      s.convertRow(pixels + (y0 + y) * rowPitch, s.staging.data() + y * rowBytes, width, sourceBgr);
    // libxcb has sent or copied the data when this returns, so staging may be refilled.
    sent.push_back(xcb_put_image_checked(s.c, XCB_IMAGE_FORMAT_Z_PIXMAP, s.window, s.gc, uint16_t(width),
                                         uint16_t(rows), 0, int16_t(y0), 0, s.depth, uint32_t(rowBytes * rows),
                                         s.staging.data()));
  }
  for (xcb_void_cookie_t cookie : sent) check(s.c, cookie);  // one round trip: replies come in order
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateXcbSurfaceKHR(VkInstance instance, const VkXcbSurfaceCreateInfoKHR* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator, VkSurfaceKHR* pSurface) {
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, fromHandle<Instance>(instance)->allocator());
  auto* s = hostNew<VkIcdSurfaceXcb>(a, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!s) return VK_ERROR_OUT_OF_HOST_MEMORY;
  s->base.platform = VK_ICD_WSI_PLATFORM_XCB;
  s->connection = pCreateInfo->connection;
  s->window = pCreateInfo->window;
  *pSurface = reinterpret_cast<VkSurfaceKHR>(s);
  return VK_SUCCESS;
}

VKAPI_ATTR VkBool32 VKAPI_CALL tessera_vkGetPhysicalDeviceXcbPresentationSupportKHR(VkPhysicalDevice,
                                                                                   uint32_t queueFamilyIndex,
                                                                                   xcb_connection_t*, xcb_visualid_t) {
  return queueFamilyIndex == 0;  // the one queue family presents; the visual is checked per window
}

}  // extern "C"
