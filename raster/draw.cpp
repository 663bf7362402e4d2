// draw() (draw.h): the path a draw takes, chosen once per process.
#include <cstdlib>
#include <cstring>

#include "draw_internal.h"
#include "tessera/log.h"
#include "tessera/thread_pool.h"

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

void draw(const DrawState& state, const DrawCall& call) {
  if (defaultRasterPath() == RasterPath::Reference) drawReference(state, call);
  else drawBinned(state, call, ThreadPool::shared());
}

}  // namespace tessera::raster
