// Cube maps: "Cube Map Face Selection and Transformations" (face, (s_face, t_face) and the
// per-face derivatives) and the neighbouring-face lookup of "Cube Map Edge Handling".
#include <algorithm>
#include <cmath>

#include "sampler_internal.h"

namespace tessera::sampler_detail {
namespace {

// "Cube Map Face Selection": the major axis is the largest magnitude component; ties are
// broken as the specification recommends: r_z wins over r_y and r_x, then r_y wins over r_x.
// The sign picks the positive face for r >= 0 (a zero direction is undefined; it lands on +Z).
template <typename T>
uint32_t majorAxisFace(const T r[3]) {
  T ax = r[0] < 0 ? -r[0] : r[0], ay = r[1] < 0 ? -r[1] : r[1], az = r[2] < 0 ? -r[2] : r[2];
  if (az >= ay && az >= ax) return r[2] >= 0 ? 4 : 5;
  if (ay >= ax) return r[1] >= 0 ? 2 : 3;
  return r[0] >= 0 ? 0 : 1;
}

// The "Cube Map Face and Coordinate Selection" table: (s_c, t_c, r_c) of direction r on
// `face`. The same linear map gives the derivatives of s_c and t_c ("Cube Map Derivative
// Selection" table has the same signs).
template <typename T>
void faceCoordinates(uint32_t face, const T r[3], T& sc, T& tc, T& rc) {
  switch (face) {
    case 0: sc = -r[2], tc = -r[1], rc = r[0]; break;  // +X
    case 1: sc = +r[2], tc = -r[1], rc = r[0]; break;  // -X
    case 2: sc = +r[0], tc = +r[2], rc = r[1]; break;  // +Y
    case 3: sc = +r[0], tc = -r[2], rc = r[1]; break;  // -Y
    case 4: sc = +r[0], tc = -r[1], rc = r[2]; break;  // +Z
    default: sc = -r[0], tc = -r[1], rc = r[2]; break; // -Z
  }
}

// The inverse of the table: the direction whose face coordinates on `face` are (sc, tc) with
// major axis magnitude m.
void faceDirection(uint32_t face, int32_t sc, int32_t tc, int32_t m, int32_t r[3]) {
  switch (face) {
    case 0: r[0] = +m, r[1] = -tc, r[2] = -sc; break;
    case 1: r[0] = -m, r[1] = -tc, r[2] = +sc; break;
    case 2: r[0] = sc, r[1] = +m, r[2] = tc; break;
    case 3: r[0] = sc, r[1] = -m, r[2] = -tc; break;
    case 4: r[0] = sc, r[1] = -tc, r[2] = +m; break;
    default: r[0] = -sc, r[1] = -tc, r[2] = -m; break;
  }
}

}  // namespace

CubeFaceCoord selectCubeFace(const float dir[3], const float* dPdx, const float* dPdy) {
  const double r[3] = {dir[0], dir[1], dir[2]};
  CubeFaceCoord out{};
  out.face = majorAxisFace(r);
  double sc, tc, rc;
  faceCoordinates(out.face, r, sc, tc, rc);
  // "Cube Map Coordinate Transformation": s_face = 1/2 * s_c/|r_c| + 1/2 (same for t). The
  // divisions are one reciprocal and multiplications (in double, within a few units of 2^-53
  // of the quotients, far below the float results' precision): six double divisions a lane
  // were the largest cost of the fragment kernels' inline cube sampling, whose face selection
  // and the cube batches' (sampler_internal.h selectCubeFaceLanes) compute exactly this.
  const double absRc = std::fabs(rc);
  const double inverse = 1.0 / absRc;
  out.s = 0.5 * (sc * inverse) + 0.5;
  out.t = 0.5 * (tc * inverse) + 0.5;
  if (dPdx && dPdy) {
    // "Cube Map Derivative Selection": ∂s_c, ∂t_c by the same table; ∂r_c is the derivative of
    // the major axis with the sign of the face (+∂r_x on +X, -∂r_x on -X, ...), i.e. of |r_c|.
    const double dx[3] = {dPdx[0], dPdx[1], dPdx[2]}, dy[3] = {dPdy[0], dPdy[1], dPdy[2]};
    double dscx, dtcx, drcx, dscy, dtcy, drcy;
    faceCoordinates(out.face, dx, dscx, dtcx, drcx);
    faceCoordinates(out.face, dy, dscy, dtcy, drcy);
    const double sign = (out.face & 1) ? -1.0 : 1.0;
    drcx *= sign, drcy *= sign;
    // "Cube Map Derivative Transformation":
    //   ∂s_face/∂x = 1/2 * (|r_c| ∂s_c/∂x - s_c ∂r_c/∂x) / r_c²   (and likewise for y and t).
    // (1 / r_c² as the reciprocal squared, as above.)
    const double inverse2 = inverse * inverse;
    out.dsdx = 0.5 * (absRc * dscx - sc * drcx) * inverse2;
    out.dsdy = 0.5 * (absRc * dscy - sc * drcy) * inverse2;
    out.dtdx = 0.5 * (absRc * dtcx - tc * drcx) * inverse2;
    out.dtdy = 0.5 * (absRc * dtcy - tc * drcy) * inverse2;
  }
  return out;
}

CubeTexel cubeAdjacentTexel(uint32_t face, int32_t i, int32_t j, int32_t size) {
  // The texel's centre as a direction, in units of half a texel so that everything stays an
  // exact integer: on a face the centre of texel i is at s_c/|r_c| = (2i + 1 - size) / size,
  // so with |r_c| = size, s_c = 2i + 1 - size. A texel one beyond the edge has
  // |s_c| = size + 1 > |r_c|, so its direction has a new, unique major axis, and "Cube Map
  // Face Selection" applied to it names the neighbouring face (this is the "appropriate
  // neighboring face" of "Cube Map Edge Handling").
  int32_t r[3];
  faceDirection(face, 2 * i + 1 - size, 2 * j + 1 - size, size, r);
  CubeTexel out;
  out.face = majorAxisFace(r);
  int32_t sc, tc, rc;
  faceCoordinates(out.face, r, sc, tc, rc);
  // On the new face one coordinate is the old major axis (±size: the texel row along the
  // shared edge, index 0 or size-1) and the other is the old coordinate along the edge
  // (2x + 1 - size: index x). floor((c + size) / 2) recovers both; c + size >= 0 here.
  auto index = [size](int32_t c) { return std::clamp((c + size) / 2, 0, size - 1); };
  out.i = index(sc);
  out.j = index(tc);
  return out;
}

}  // namespace tessera::sampler_detail
