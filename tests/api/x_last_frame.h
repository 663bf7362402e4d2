// The last picture a program showed in its X11 window before it exited, for programs that draw
// a fixed number of frames and quit (vkcube --c N) on a driver without frame capture (lavapipe).
// The test redirects the root's children offscreen (Composite, manual redirection: the server
// keeps each window's contents in a pixmap and shows nothing), names the program's window pixmap
// when it maps, and reads that pixmap after the program is gone: Composite keeps a named pixmap
// alive after its window is destroyed.
#pragma once

#include <xcb/composite.h>
#include <xcb/xcb.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "program_run.h"
#include "wsi_fixture.h"

namespace tessera_test {

// Runs `argv` with `env` (which must name `display`) to its end and returns what its first
// top-level window showed last (empty when it mapped none or it could not be read); `status`
// gets its exit status as runProgram gives it.
inline Png lastFrameOfWindow(const std::string& display, const std::vector<std::string>& argv,
                             const std::vector<std::string>& env, const std::string& log, int* status) {
  Png out;
  *status = -1;
  xcb_connection_t* c = xcb_connect(display.c_str(), nullptr);
  if (xcb_connection_has_error(c)) {
    xcb_disconnect(c);
    return out;
  }
  const xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
  xcb_composite_query_version_reply_t* version =
      xcb_composite_query_version_reply(c, xcb_composite_query_version(c, 0, 4), nullptr);
  const bool haveComposite = version && (version->major_version > 0 || version->minor_version >= 2);
  std::free(version);
  if (!haveComposite) {
    xcb_disconnect(c);
    return out;
  }
  const uint32_t events = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
  xcb_change_window_attributes(c, screen->root, XCB_CW_EVENT_MASK, &events);
  xcb_composite_redirect_subwindows(c, screen->root, XCB_COMPOSITE_REDIRECT_MANUAL);
  xcb_flush(c);

  xcb_pixmap_t pixmap = 0;
  uint16_t width = 0, height = 0;
  const pid_t pid = startProgram(argv, env, log, 120);
  for (;;) {
    int wstatus = 0;
    const pid_t done = waitpid(pid, &wstatus, WNOHANG);
    // Handle what is queued before deciding the program is gone: its MapNotify may be there.
    for (xcb_generic_event_t* e; (e = xcb_poll_for_event(c)) != nullptr; std::free(e)) {
      if ((e->response_type & 0x7f) != XCB_MAP_NOTIFY || pixmap != 0) continue;
      const xcb_window_t window = reinterpret_cast<xcb_map_notify_event_t*>(e)->window;
      xcb_get_geometry_reply_t* geometry = xcb_get_geometry_reply(c, xcb_get_geometry(c, window), nullptr);
      if (!geometry || geometry->depth != 24) {
        std::free(geometry);
        continue;
      }
      width = geometry->width;
      height = geometry->height;
      std::free(geometry);
      pixmap = xcb_generate_id(c);
      xcb_composite_name_window_pixmap(c, window, pixmap);
      xcb_flush(c);
    }
    if (done == pid) {
      if (WIFEXITED(wstatus)) *status = WEXITSTATUS(wstatus);
      break;
    }
    if (done < 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (pixmap != 0) {
    xcb_get_image_reply_t* image =
        xcb_get_image_reply(c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, pixmap, 0, 0, width, height, ~0u), nullptr);
    if (image && xcb_get_image_data_length(image) >= 4 * width * height) {
      const uint8_t* data = xcb_get_image_data(image);  // depth 24: 0x00RRGGBB words
      out.width = width;
      out.height = height;
      for (uint32_t p = 0; p < uint32_t(width) * height; ++p) out.rgb.insert(out.rgb.end(), {data[4 * p + 2], data[4 * p + 1], data[4 * p]});
    }
    std::free(image);
    xcb_free_pixmap(c, pixmap);
  }
  xcb_disconnect(c);
  return out;
}

}  // namespace tessera_test
