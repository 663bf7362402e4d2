// defaultRasterPath() (draw.h): the path draws take, chosen once per process.
#include <cstdlib>
#include <cstring>

#include "draw_internal.h"
#include "tessera/log.h"

namespace tessera::raster {

RasterPath defaultRasterPath() {
  static const RasterPath path = [] {
    const char* env = std::getenv("TESSERA_RASTER");
    if (!env || !*env || std::strcmp(env, "binned") == 0) return RasterPath::Binned;
    if (std::strcmp(env, "reference") == 0) return RasterPath::Reference;
    TESSERA_LOG(Warn, "TESSERA_RASTER=%s is neither 'binned' nor 'reference': using 'binned'", env);
    return RasterPath::Binned;
  }();
  return path;
}

}  // namespace tessera::raster
