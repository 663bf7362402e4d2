// BPTC block decoding (BC7 and BC6H), written from the Khronos Data Format Specification's
// chapter "BPTC Compressed Texture Image Formats" (Vulkan's "Compressed Image Formats" appendix
// points there for VK_FORMAT_BC6H_* and VK_FORMAT_BC7_*). Table names below are that chapter's.
//
// Both formats are bit exact: BC7 gives 8-bit RGBA integers, BC6H 16-bit half-float bit patterns,
// and only the last step makes floats, through the texel codec as R8G8B8A8_UNORM/_SRGB and
// R16G16B16A16_SFLOAT texels. Every 128-bit pattern decodes to something: the reserved BC7 mode
// (low byte 0) to all-zero texels, reserved BC6H modes to (0, 0, 0, 1), as the chapter says; no
// field can index outside its table (partition numbers are at most 6 bits, indices at most 4).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "block_decoders.h"

namespace tessera {
namespace {

// "128 bits of texel data stored in little-endian order": block bit n is bit n % 8 of byte n / 8.
class BlockBits {
 public:
  explicit BlockBits(const uint8_t* q) {
    for (int n = 7; n >= 0; --n) low_ = low_ << 8 | q[n], high_ = high_ << 8 | q[8 + n];
  }
  // `count` (0..32) bits from bit `first`, the first one in the result's bit 0. Bits past 127 read
  // as 0 (no mode reads them; this only keeps a miscount from reading past the block).
  uint32_t at(int first, int count) const {
    if (count == 0 || first >= 128) return 0;
    uint64_t v;
    if (first >= 64) v = high_ >> (first - 64);
    else v = first == 0 ? low_ : low_ >> first | high_ << (64 - first);
    return uint32_t(v & ((uint64_t(1) << count) - 1));
  }

 private:
  uint64_t low_ = 0, high_ = 0;  // bits 0-63 and 64-127
};

// Reads fields one after another, LSB first, as the chapter's layouts list them.
struct BitCursor {
  const BlockBits& bits;
  int position;
  uint32_t read(int count) {
    const uint32_t v = bits.at(position, count);
    position += count;
    return v;
  }
};

// ---- Partitions and anchors (shared by BC7 and BC6H) -----------------------------------------
// "Partition table for 2-subset BPTC" and "Partition table for 3-subset BPTC": each partition's
// 4x4 block of subset numbers, rows top to bottom, so texel (x, y) is character 4y + x.
constexpr const char* kPartition2[64] = {
    "0011001100110011", "0001000100010001", "0111011101110111", "0001001100110111", "0000000100010011", "0011011101111111",
    "0001001101111111", "0000000100110111", "0000000000010011", "0011011111111111", "0000000101111111", "0000000000010111",
    "0001011111111111", "0000000011111111", "0000111111111111", "0000000000001111", "0000100011101111", "0111000100000000",
    "0000000010001110", "0111001100010000", "0011000100000000", "0000100011001110", "0000000010001100", "0111001100110001",
    "0011000100010000", "0000100010001100", "0110011001100110", "0011011001101100", "0001011111101000", "0000111111110000",
    "0111000110001110", "0011100110011100", "0101010101010101", "0000111100001111", "0101101001011010", "0011001111001100",
    "0011110000111100", "0101010110101010", "0110100101101001", "0101101010100101", "0111001111001110", "0001001111001000",
    "0011001001001100", "0011101111011100", "0110100110010110", "0011110011000011", "0110011010011001", "0000011001100000",
    "0100111001000000", "0010011100100000", "0000001001110010", "0000010011100100", "0110110010010011", "0011011011001001",
    "0110001110011100", "0011100111000110", "0110110011001001", "0110001100111001", "0111111010000001", "0001100011100111",
    "0000111100110011", "0011001111110000", "0010001011101110", "0100010001110111",
};
constexpr const char* kPartition3[64] = {
    "0011001102212222", "0001001122112221", "0000200122112211", "0222002200110111", "0000000011221122", "0011001100220022",
    "0022002211111111", "0011001122112211", "0000000011112222", "0000111111112222", "0000111122222222", "0012001200120012",
    "0112011201120112", "0122012201220122", "0011011211221222", "0011200122002220", "0001001101121122", "0111001120012200",
    "0000112211221122", "0022002200221111", "0111011102220222", "0001000122212221", "0000001101220122", "0000110022102210",
    "0122012200110000", "0012001211222222", "0110122112210110", "0000011012211221", "0022110211020022", "0110011020022222",
    "0011012201220011", "0000200022112221", "0000000211221222", "0222002200120011", "0011001200220222", "0120012001200120",
    "0000111122220000", "0120120120120120", "0120201212010120", "0011220011220011", "0011112222000011", "0101010122222222",
    "0000000021212121", "0022112200221122", "0022001100220011", "0220122102201221", "0101222222220101", "0000212121212121",
    "0101010101012222", "0222011102220111", "0002111200021112", "0000211221122112", "0222011101110222", "0002111211120002",
    "0110011001102222", "0000000021122112", "0110011022222222", "0022001100110022", "0022112211220022", "0000000000002112",
    "0002000100020001", "0222122202221222", "0101222222222222", "0111201122012220",
};

// "BPTC anchor index values for the second subset of two-subset partitioning" (texel 4y + x).
// KDFS 1.4 bolds texel 2 of partition 35 in the partition table but lists 8 here; 8 is what the
// OpenGL BPTC extension and Direct3D use (KhronosGroup/DataFormat issue 28), and is kept.
constexpr uint8_t kAnchor2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15,  2,  8,  2,  2,  8,  8, 15,  2,  8,  2,  2,  8,  8,  2,  2,
    15, 15,  6,  8,  2,  8, 15, 15,  2,  8,  2,  2,  2, 15, 15,  6,
     6,  2,  6,  8, 15, 15,  2,  2, 15, 15, 15, 15, 15,  2,  2, 15,
};
// "... for the second subset of three-subset partitioning" and "... third subset ...".
constexpr uint8_t kAnchor3Second[64] = {
     3,  3, 15, 15,  8,  3, 15, 15,  8,  8,  6,  6,  6,  5,  3,  3,
     3,  3,  8, 15,  3,  3,  6, 10,  5,  8,  8,  6,  8,  5, 15, 15,
     8, 15,  3,  5,  6, 10,  8, 15, 15,  3, 15,  5, 15, 15, 15, 15,
     3, 15,  5,  5,  5,  8,  5, 10,  5, 10,  8, 13, 15, 12,  3,  3,
};
constexpr uint8_t kAnchor3Third[64] = {
    15,  8,  8,  3, 15, 15,  3,  8, 15, 15, 15, 15, 15, 15, 15,  8,
    15,  8, 15,  3, 15,  8, 15,  8,  3, 15,  6, 10, 15, 15, 10,  8,
    15,  3, 15, 10, 10,  8,  9, 10,  6, 15,  8, 15,  3,  6,  6,  8,
    15,  3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,  3, 15, 15,  8,
};

int subsetOf(int subsets, int partition, int texel) {
  if (subsets == 1) return 0;
  return (subsets == 2 ? kPartition2 : kPartition3)[partition][texel] - '0';
}

// "Each index has the number of bits indicated by the mode except for one special index per subset
// called the anchor index", whose most significant bit is implicitly 0 and not stored. Texel 0
// anchors subset 0 in every partition.
bool isAnchor(int subsets, int partition, int texel) {
  if (texel == 0) return true;
  if (subsets == 2) return texel == kAnchor2[partition];
  if (subsets == 3) return texel == kAnchor3Second[partition] || texel == kAnchor3Third[partition];
  return false;
}

// "BPTC interpolation factors" for 2-, 3- and 4-bit indices.
constexpr uint8_t kWeights2[4] = {0, 21, 43, 64};
constexpr uint8_t kWeights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr uint8_t kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

int weight(int indexBits, uint32_t index) {
  return indexBits == 2 ? kWeights2[index & 3] : indexBits == 3 ? kWeights3[index & 7] : kWeights4[index & 15];
}

// "BPTC endpoint interpolation formula": ((64 - weight) x E0 + weight x E1 + 32) >> 6. BC6H's
// signed endpoints can be negative; >> of a negative int is an arithmetic shift (C++20).
int32_t interpolate(int32_t e0, int32_t e1, int w) { return ((64 - w) * e0 + w * e1 + 32) >> 6; }

// Reads the 16 indices of `bitsPerIndex` bits from the cursor, one bit fewer at anchor texels,
// "in y-major order": texel (x, y) is index 4y + x.
void readIndices(BitCursor& c, int bitsPerIndex, int subsets, int partition, uint32_t out[16]) {
  for (int i = 0; i < 16; ++i) out[i] = c.read(bitsPerIndex - (isAnchor(subsets, partition, i) ? 1 : 0));
}

// ---- BC7 ---------------------------------------------------------------------------------------
// "Mode-dependent BPTC parameters": NS subsets, PB partition bits, RB rotation bits, ISB index
// selection bit, CB colour bits and AB alpha bits per channel and endpoint, EPB per-endpoint
// P-bits, SPB shared P-bits (per subset), IB and IB2 primary and secondary index bits.
struct Bc7Mode {
  uint8_t subsets, partitionBits, rotationBits, indexSelectionBits, colorBits, alphaBits;
  bool endpointPBits, sharedPBits;
  uint8_t indexBits, index2Bits;
};
constexpr Bc7Mode kBc7Modes[8] = {
    {3, 4, 0, 0, 4, 0, true, false, 3, 0},  {2, 6, 0, 0, 6, 0, false, true, 3, 0},
    {3, 6, 0, 0, 5, 0, false, false, 2, 0}, {2, 6, 0, 0, 7, 0, true, false, 2, 0},
    {1, 0, 2, 1, 5, 6, false, false, 2, 3}, {1, 0, 2, 0, 7, 8, false, false, 2, 2},
    {1, 0, 0, 0, 7, 7, true, false, 4, 0},  {2, 6, 0, 0, 5, 5, true, false, 2, 0},
};

// "These bits are treated as the high bits of a fixed-point value in a byte ... the top bits of
// the value are replicated into any remaining bits": an n-bit value (n >= 4) widened to 8 bits.
int widen(uint32_t v, int n) { return int((v << (8 - n)) | (v >> (2 * n - 8))); }

}  // namespace

void decodeBc7(const uint8_t* q, uint8_t out[16][4]) {
  // "Encoding the low byte as zero is reserved ... hardware decoders processing a texel block
  // with a low byte of 0 should return 0 for all channels of all texels."
  if (q[0] == 0) {
    std::memset(out, 0, 16 * 4);
    return;
  }
  // The mode is the number of zeros below the lowest set bit ("zero or more zeros followed by a one").
  const int mode = std::countr_zero(unsigned(q[0]));
  const Bc7Mode& m = kBc7Modes[mode];
  const BlockBits bits(q);
  // "In increasing bit order after the mode, these fields are: partition pattern selection,
  // rotation, index selection, color, alpha, per-endpoint P-bit, shared P-bit, primary indices,
  // and secondary indices."
  BitCursor c{bits, mode + 1};
  const int partition = int(c.read(m.partitionBits));
  const int rotation = int(c.read(m.rotationBits));
  const bool indexSelection = c.read(m.indexSelectionBits) != 0;
  const int endpoints = 2 * m.subsets;
  // Endpoints "grouped first by endpoint, then by subset, then by channel": all red values
  // (endpoint 0 and 1 of subset 0, then of subset 1, ...), then green, blue, and alpha.
  uint32_t raw[6][4] = {};
  for (int ch = 0; ch < 3; ++ch)
    for (int e = 0; e < endpoints; ++e) raw[e][ch] = c.read(m.colorBits);
  if (m.alphaBits)
    for (int e = 0; e < endpoints; ++e) raw[e][3] = c.read(m.alphaBits);
  uint32_t pBit[6] = {};
  if (m.endpointPBits)
    for (int e = 0; e < endpoints; ++e) pBit[e] = c.read(1);
  if (m.sharedPBits)  // "the lower of which applies to both endpoints of subset 0 and the upper ... subset 1"
    for (int s = 0; s < m.subsets; ++s) pBit[2 * s] = pBit[2 * s + 1] = c.read(1);
  const bool hasPBits = m.endpointPBits || m.sharedPBits;
  int endpoint[6][4];
  for (int e = 0; e < endpoints; ++e)
    for (int ch = 0; ch < 4; ++ch) {
      int n = ch < 3 ? m.colorBits : m.alphaBits;
      if (n == 0) {  // "If not [any alpha bits], alpha is overridden to 255."
        endpoint[e][ch] = 255;
        continue;
      }
      uint32_t v = raw[e][ch];
      if (hasPBits) {  // "added as a bit below the color data"
        v = v << 1 | pBit[e];
        ++n;
      }
      endpoint[e][ch] = widen(v, n);
    }
  uint32_t primary[16], secondary[16] = {};
  readIndices(c, m.indexBits, m.subsets, partition, primary);
  if (m.index2Bits) readIndices(c, m.index2Bits, 1, 0, secondary);  // "read in the same manner"
  // "The index value for interpolating color comes from the secondary index bits for the texel if
  // the mode has an index selection bit and its value is one, and from the primary index bits
  // otherwise. The alpha index comes from the secondary index bits if the block has a secondary
  // index and the block either doesn't have an index selection bit or that bit is zero".
  const bool colorFromSecondary = m.index2Bits && indexSelection;
  const bool alphaFromSecondary = m.index2Bits && !indexSelection;
  const int colorIndexBits = colorFromSecondary ? m.index2Bits : m.indexBits;
  const int alphaIndexBits = alphaFromSecondary ? m.index2Bits : m.indexBits;
  for (int i = 0; i < 16; ++i) {
    const int s = subsetOf(m.subsets, partition, i);
    const int* e0 = endpoint[2 * s];
    const int* e1 = endpoint[2 * s + 1];
    const int wc = weight(colorIndexBits, colorFromSecondary ? secondary[i] : primary[i]);
    const int wa = weight(alphaIndexBits, alphaFromSecondary ? secondary[i] : primary[i]);
    int texel[4];
    for (int ch = 0; ch < 3; ++ch) texel[ch] = interpolate(e0[ch], e1[ch], wc);
    texel[3] = interpolate(e0[3], e1[3], wa);
    // "BPTC Rotation bits": 1 swaps A and R, 2 A and G, 3 A and B.
    if (rotation) std::swap(texel[3], texel[rotation - 1]);
    for (int ch = 0; ch < 4; ++ch) out[i][ch] = uint8_t(texel[ch]);
  }
}

namespace {

// ---- BC6H --------------------------------------------------------------------------------------
// Fields of "Block descriptions for BC6H block modes": endpoint Ek's red, green, blue (R0 .. B3)
// and the partition number PB. kEnd ends a mode's list.
enum Field : uint8_t { kEnd, R0, G0, B0, R1, G1, B1, R2, G2, B2, R3, G3, B3, kPB };

// One element v^a..b of a block description: the next |a - b| + 1 block bits, the first going to
// bit b of v, the following ones towards bit a ("If a < b, then the bits are reversed").
struct Segment {
  Field field;
  uint8_t a, b;
};

struct Bc6Mode {
  uint8_t number;      // the mode number: low 2 bits for modes 0 and 1, else low 5 bits
  bool transformed;    // "Transformed endpoints"
  uint8_t partitionBits;
  uint8_t endpointBits;   // EPB
  uint8_t deltaBits[3];   // R, G, B delta bits of transformed endpoints
};

// "Endpoint and partition parameters for BPTC block modes", in the chapter's row order.
constexpr Bc6Mode kBc6Modes[14] = {
    {0, true, 5, 10, {5, 5, 5}},   {1, true, 5, 7, {6, 6, 6}},    {2, true, 5, 11, {5, 4, 4}},
    {6, true, 5, 11, {4, 5, 4}},   {10, true, 5, 11, {4, 4, 5}},  {14, true, 5, 9, {5, 5, 5}},
    {18, true, 5, 8, {6, 5, 5}},   {22, true, 5, 8, {5, 6, 5}},   {26, true, 5, 8, {5, 5, 6}},
    {30, false, 5, 6, {0, 0, 0}},  {3, false, 0, 10, {0, 0, 0}},  {7, true, 0, 11, {9, 9, 9}},
    {11, true, 0, 12, {8, 8, 8}},  {15, true, 0, 16, {4, 4, 4}},
};

// "Block descriptions for BC6H block modes (LSB..MSB)" after the mode bits, same row order.
// (Checked against the chapter's bit-by-bit tables "Interpretation of lower/upper bits for BC6H
// block modes" when transcribed; tests/unit/sampler/bc_decode_test.cpp decodes one block per mode.)
constexpr Segment kBc6Layouts[14][24] = {
    // mode 0
    {{G2, 4, 4}, {B2, 4, 4}, {B3, 4, 4}, {R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0},
     {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0}, {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0},
     {B3, 3, 3}, {kPB, 4, 0}},
    // mode 1
    {{G2, 5, 5}, {G3, 4, 4}, {G3, 5, 5}, {R0, 6, 0}, {B3, 0, 0}, {B3, 1, 1}, {B2, 4, 4}, {G0, 6, 0}, {B2, 5, 5},
     {B3, 2, 2}, {G2, 4, 4}, {B0, 6, 0}, {B3, 3, 3}, {B3, 5, 5}, {B3, 4, 4}, {R1, 5, 0}, {G2, 3, 0}, {G1, 5, 0},
     {G3, 3, 0}, {B1, 5, 0}, {B2, 3, 0}, {R2, 5, 0}, {R3, 5, 0}, {kPB, 4, 0}},
    // mode 2
    {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 4, 0}, {R0, 10, 10}, {G2, 3, 0}, {G1, 3, 0}, {G0, 10, 10}, {B3, 0, 0},
     {G3, 3, 0}, {B1, 3, 0}, {B0, 10, 10}, {B3, 1, 1}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3},
     {kPB, 4, 0}},
    // mode 6
    {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 3, 0}, {R0, 10, 10}, {G3, 4, 4}, {G2, 3, 0}, {G1, 4, 0}, {G0, 10, 10},
     {G3, 3, 0}, {B1, 3, 0}, {B0, 10, 10}, {B3, 1, 1}, {B2, 3, 0}, {R2, 3, 0}, {B3, 0, 0}, {B3, 2, 2}, {R3, 3, 0},
     {G2, 4, 4}, {B3, 3, 3}, {kPB, 4, 0}},
    // mode 10
    {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 3, 0}, {R0, 10, 10}, {B2, 4, 4}, {G2, 3, 0}, {G1, 3, 0}, {G0, 10, 10},
     {B3, 0, 0}, {G3, 3, 0}, {B1, 4, 0}, {B0, 10, 10}, {B2, 3, 0}, {R2, 3, 0}, {B3, 1, 1}, {B3, 2, 2}, {R3, 3, 0},
     {B3, 4, 4}, {B3, 3, 3}, {kPB, 4, 0}},
    // mode 14
    {{R0, 8, 0}, {B2, 4, 4}, {G0, 8, 0}, {G2, 4, 4}, {B0, 8, 0}, {B3, 4, 4}, {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0},
     {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0}, {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0},
     {B3, 3, 3}, {kPB, 4, 0}},
    // mode 18
    {{R0, 7, 0}, {G3, 4, 4}, {B2, 4, 4}, {G0, 7, 0}, {B3, 2, 2}, {G2, 4, 4}, {B0, 7, 0}, {B3, 3, 3}, {B3, 4, 4},
     {R1, 5, 0}, {G2, 3, 0}, {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0}, {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 5, 0},
     {R3, 5, 0}, {kPB, 4, 0}},
    // mode 22
    {{R0, 7, 0}, {B3, 0, 0}, {B2, 4, 4}, {G0, 7, 0}, {G2, 5, 5}, {G2, 4, 4}, {B0, 7, 0}, {G3, 5, 5}, {B3, 4, 4},
     {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0}, {G1, 5, 0}, {G3, 3, 0}, {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 4, 0},
     {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3}, {kPB, 4, 0}},
    // mode 26
    {{R0, 7, 0}, {B3, 1, 1}, {B2, 4, 4}, {G0, 7, 0}, {B2, 5, 5}, {G2, 4, 4}, {B0, 7, 0}, {B3, 5, 5}, {B3, 4, 4},
     {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0}, {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0}, {B1, 5, 0}, {B2, 3, 0}, {R2, 4, 0},
     {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3}, {kPB, 4, 0}},
    // mode 30
    {{R0, 5, 0}, {G3, 4, 4}, {B3, 0, 0}, {B3, 1, 1}, {B2, 4, 4}, {G0, 5, 0}, {G2, 5, 5}, {B2, 5, 5}, {B3, 2, 2},
     {G2, 4, 4}, {B0, 5, 0}, {G3, 5, 5}, {B3, 3, 3}, {B3, 5, 5}, {B3, 4, 4}, {R1, 5, 0}, {G2, 3, 0}, {G1, 5, 0},
     {G3, 3, 0}, {B1, 5, 0}, {B2, 3, 0}, {R2, 5, 0}, {R3, 5, 0}, {kPB, 4, 0}},
    // mode 3
    {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 9, 0}, {G1, 9, 0}, {B1, 9, 0}},
    // mode 7
    {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 8, 0}, {R0, 10, 10}, {G1, 8, 0}, {G0, 10, 10}, {B1, 8, 0},
     {B0, 10, 10}},
    // mode 11
    {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 7, 0}, {R0, 10, 11}, {G1, 7, 0}, {G0, 10, 11}, {B1, 7, 0},
     {B0, 10, 11}},
    // mode 15
    {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 3, 0}, {R0, 10, 15}, {G1, 3, 0}, {G0, 10, 15}, {B1, 3, 0},
     {B0, 10, 15}},

};

int32_t signExtend(uint32_t v, int bits) { return int32_t(v << (32 - bits)) >> (32 - bits); }

// The chapter's unquantization of an endpoint of `bits` bits.
int32_t unquantize(int32_t x, int bits, bool isSigned) {
  if (!isSigned) {
    if (bits >= 15) return x;
    if (x == 0) return 0;
    if (x == (1 << bits) - 1) return 0xFFFF;
    return ((x << 15) + 0x4000) >> (bits - 1);
  }
  if (bits >= 16) return x;
  const bool negative = x < 0;
  if (negative) x = -x;
  int32_t unq;
  if (x == 0) unq = 0;
  else if (x >= (1 << (bits - 1)) - 1) unq = 0x7FFF;
  else unq = ((x << 15) + 0x4000) >> (bits - 1);
  return negative ? -unq : unq;
}

// The final unquantization to a half-float bit pattern: unsigned x 31/64, signed |x| x 31/32
// with the sign restored as the sign bit.
uint16_t finishUnquantize(int32_t i, bool isSigned) {
  if (!isSigned) return uint16_t((i * 31) >> 6);
  return i < 0 ? uint16_t((((-i) * 31) >> 5) | 0x8000) : uint16_t((i * 31) >> 5);
}

}  // namespace

void decodeBc6h(const uint8_t* q, bool isSigned, uint16_t out[16][3]) {
  // "If the low two bits are less than two, that is the mode number, otherwise the low five bits".
  const int low2 = q[0] & 3;
  const int number = low2 < 2 ? low2 : q[0] & 31;
  const Bc6Mode* m = nullptr;
  int layout = 0;
  for (; layout < 14; ++layout)
    if (kBc6Modes[layout].number == number) {
      m = &kBc6Modes[layout];
      break;
    }
  if (!m) {  // 19, 23, 27, 31: "a reserved or invalid encoding ... (0.0, 0.0, 0.0, 1.0)"
    std::memset(out, 0, 16 * 3 * sizeof(uint16_t));
    return;
  }
  const BlockBits bits(q);
  BitCursor c{bits, low2 < 2 ? 2 : 5};
  uint32_t field[13] = {};  // R0 .. B3 at Field - 1, PB at 12
  for (const Segment& s : kBc6Layouts[layout]) {
    if (s.field == kEnd) break;
    if (s.a >= s.b) {  // in order: the next a - b + 1 bits are bits b..a
      field[s.field - 1] |= c.read(s.a - s.b + 1) << s.b;
      continue;
    }
    for (int bit = s.b; bit >= s.a; --bit) field[s.field - 1] |= c.read(1) << bit;  // reversed
  }
  const int subsets = m->partitionBits ? 2 : 1;
  const int partition = int(field[kPB - 1]);  // 5 bits: "the first half of" the 2-subset table
  const int epb = m->endpointBits;
  // "The values in E0 are sign-extended ... if the format of the texture is signed. The values in
  // E1 (and E2 and E3 if the block has two subsets) are sign-extended if the format of the texture
  // is signed or if the block mode has transformed endpoints. If the mode has transformed
  // endpoints, the values from E0 are used as a base to offset all other endpoints, wrapped at the
  // number of endpoint bits." A wrapped signed endpoint is an EPB-bit two's-complement value again.
  int32_t endpoint[4][3];
  for (int ch = 0; ch < 3; ++ch) {
    const uint32_t base = field[ch];
    endpoint[0][ch] = isSigned ? signExtend(base, epb) : int32_t(base);
    for (int e = 1; e < 2 * subsets; ++e) {
      const uint32_t v = field[e * 3 + ch];
      if (m->transformed) {
        const uint32_t sum = (base + uint32_t(signExtend(v, m->deltaBits[ch]))) & ((uint32_t(1) << epb) - 1);
        endpoint[e][ch] = isSigned ? signExtend(sum, epb) : int32_t(sum);
      } else {
        endpoint[e][ch] = isSigned ? signExtend(v, epb) : int32_t(v);
      }
    }
  }
  for (int e = 0; e < 2 * subsets; ++e)
    for (int ch = 0; ch < 3; ++ch) endpoint[e][ch] = unquantize(endpoint[e][ch], epb, isSigned);
  // Indices: one subset, 4 bits from bit 65; two subsets, 3 bits from bit 82 (the mode's fields
  // end exactly there), anchors as in BC7.
  const int indexBits = subsets == 1 ? 4 : 3;
  uint32_t index[16];
  readIndices(c, indexBits, subsets, partition, index);
  for (int i = 0; i < 16; ++i) {
    const int s = subsetOf(subsets, partition, i);
    const int w = weight(indexBits, index[i]);
    for (int ch = 0; ch < 3; ++ch)
      out[i][ch] = finishUnquantize(interpolate(endpoint[2 * s][ch], endpoint[2 * s + 1][ch], w), isSigned);
  }
}

}  // namespace tessera
