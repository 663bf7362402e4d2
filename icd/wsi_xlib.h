// X11 windows made through Xlib (VK_KHR_xlib_surface). They present like xcb windows
// (wsi_xcb.h), through the Display's own xcb connection (libX11-xcb): the window is the same XID.
// No X headers here: only wsi_xlib.cpp sees Xlib's.
#pragma once

#include <cstdint>

struct xcb_connection_t;  // xcb.h: typedef struct xcb_connection_t xcb_connection_t

namespace tessera {

struct Surface;

bool isXlibSurface(const Surface& surface);
// The xcb connection under the surface's Display and its window.
xcb_connection_t* xlibConnection(const Surface& surface);
uint32_t xlibWindow(const Surface& surface);

}  // namespace tessera
