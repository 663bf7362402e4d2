// "Transform Feedback Capture" as a stage's SPIR-V declares it: the Xfb execution mode, and
// the output variables (or block members) decorated with Offset, their XfbBuffer and the
// buffers' XfbStride. Read straight from the module's words (decorations are literals, so no
// specialization or translation is needed), independently of the compile caches: the layout
// is not part of a compiled program.
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "tessera/spirv_jit.h"

namespace tessera::jit {
namespace {

constexpr uint32_t kOpEntryPoint = 15, kOpExecutionMode = 16, kOpTypeInt = 21, kOpTypeFloat = 22,
                   kOpTypeVector = 23, kOpTypeMatrix = 24, kOpTypeArray = 28, kOpTypeStruct = 30,
                   kOpTypePointer = 32, kOpConstant = 43, kOpFunction = 54, kOpVariable = 59, kOpDecorate = 71,
                   kOpMemberDecorate = 72;
constexpr uint32_t kDecorationBuiltIn = 11, kDecorationStream = 29, kDecorationLocation = 30,
                   kDecorationComponent = 31, kDecorationOffset = 35, kDecorationXfbBuffer = 36,
                   kDecorationXfbStride = 37;
constexpr uint32_t kBuiltInPosition = 0, kBuiltInPointSize = 1, kBuiltInClipDistance = 3, kBuiltInCullDistance = 4;
constexpr uint32_t kExecutionModeXfb = 11;
constexpr uint32_t kStorageClassOutput = 3;
constexpr uint32_t kNone = ~0u;

// The decorations that matter here, of an object or of a structure member.
struct Decorations {
  uint32_t builtIn = kNone, location = kNone, component = 0, offset = kNone, buffer = kNone, stride = kNone,
           stream = kNone;
  void set(uint32_t decoration, uint32_t value) {
    switch (decoration) {
      case kDecorationBuiltIn: builtIn = value; break;
      case kDecorationLocation: location = value; break;
      case kDecorationComponent: component = value; break;
      case kDecorationOffset: offset = value; break;
      case kDecorationXfbBuffer: buffer = value; break;
      case kDecorationXfbStride: stride = value; break;
      case kDecorationStream: stream = value; break;
      default: break;
    }
  }
};

struct Type {
  uint32_t op = 0;
  uint32_t width = 0;       // int/float: bits
  uint32_t element = 0;     // vector/matrix/array: element type
  uint32_t count = 0;       // vector/matrix: components/columns; array: length
  std::vector<uint32_t> members;
};

class Reader {
 public:
  Reader(FeedbackLayout& out) : out_(out) {}

  bool parse(std::span<const uint32_t> words, std::string_view entryPoint, uint32_t model) {
    if (words.size() < 5) return false;
    std::vector<uint32_t> interface;
    uint32_t entryId = kNone;
    std::vector<uint32_t> xfbEntries;
    for (size_t i = 5; i < words.size();) {
      const uint32_t count = words[i] >> 16, op = words[i] & 0xFFFF;
      if (count == 0 || i + count > words.size()) return false;
      const uint32_t* w = &words[i];
      switch (op) {
        case kOpEntryPoint: {
          if (count < 4) break;
          const char* name = reinterpret_cast<const char*>(&w[3]);
          const size_t maxLen = (count - 3) * 4;
          const size_t len = strnlen(name, maxLen);
          const uint32_t nameWords = uint32_t(len / 4 + 1);
          if (w[1] == model && std::string_view(name, len) == entryPoint && entryId == kNone) {
            entryId = w[2];
            for (uint32_t k = 3 + nameWords; k < count; ++k) interface.push_back(w[k]);
          }
          break;
        }
        case kOpExecutionMode:
          if (count >= 3 && w[2] == kExecutionModeXfb) xfbEntries.push_back(w[1]);
          break;
        case kOpDecorate:
          if (count >= 3) decorations_[w[1]].set(w[2], count >= 4 ? w[3] : 0);
          break;
        case kOpMemberDecorate:
          if (count >= 4) memberDecorations_[{w[1], w[2]}].set(w[3], count >= 5 ? w[4] : 0);
          break;
        case kOpTypeInt:
        case kOpTypeFloat:
          if (count >= 3) types_[w[1]] = Type{op, w[2]};
          break;
        case kOpTypeVector:
        case kOpTypeMatrix:
          if (count >= 4) types_[w[1]] = Type{op, 0, w[2], w[3]};
          break;
        case kOpTypeArray:
          if (count >= 4) types_[w[1]] = Type{op, 0, w[2], constants_.count(w[3]) ? constants_[w[3]] : 0};
          break;
        case kOpTypeStruct:
          if (count >= 2) {
            Type t{op};
            t.members.assign(w + 2, w + count);
            types_[w[1]] = std::move(t);
          }
          break;
        case kOpTypePointer:
          if (count >= 4) pointee_[w[1]] = w[3];
          break;
        case kOpConstant:
          if (count >= 4) constants_[w[2]] = w[3];
          break;
        case kOpVariable:
          if (count >= 4 && w[3] == kStorageClassOutput) outputVariables_[w[2]] = w[1];
          break;
        default:
          break;
      }
      if (op == kOpFunction) break;  // every declaration comes before the first function
      i += count;
    }
    if (entryId == kNone || std::find(xfbEntries.begin(), xfbEntries.end(), entryId) == xfbEntries.end()) return true;
    out_.enabled = true;
    for (uint32_t id : interface) {
      auto var = outputVariables_.find(id);
      if (var == outputVariables_.end()) continue;
      const Decorations d = decorations_.count(id) ? decorations_[id] : Decorations{};
      const uint32_t type = pointee_.count(var->second) ? pointee_[var->second] : 0;
      // "Transform Feedback Capture": an output's vertices go to its Stream (0 when undecorated),
      // a block member's Stream being the member's own or the block's.
      const uint32_t stream = d.stream == kNone ? 0 : d.stream;
      if (d.offset != kNone) {
        captureObject(type, d, d.buffer == kNone ? 0 : d.buffer, d.location == kNone ? 0 : d.location, d.offset, stream);
        continue;
      }
      // A block whose members carry the Offsets (gl_PerVertex, or a user block), or an array
      // of such blocks, whose element i goes to buffer XfbBuffer + i with the same offsets (as
      // GLSL's arrayed blocks are laid out, and glslang emits them).
      uint32_t blockType = type, instances = 1;
      auto t = types_.find(type);
      if (t != types_.end() && t->second.op == kOpTypeArray) {
        blockType = t->second.element;
        instances = t->second.count;
        t = types_.find(blockType);
      }
      if (t == types_.end() || t->second.op != kOpTypeStruct) continue;
      uint32_t location = d.location == kNone ? 0 : d.location;
      for (uint32_t instance = 0; instance < instances; ++instance)
        for (uint32_t m = 0; m < t->second.members.size(); ++m) {
          const Decorations md =
              memberDecorations_.count({blockType, m}) ? memberDecorations_[{blockType, m}] : Decorations{};
          if (md.location != kNone) location = md.location + instance * locationsOf(blockType);
          const uint32_t buffer = (md.buffer != kNone ? md.buffer : d.buffer != kNone ? d.buffer : 0) + instance;
          if (md.stride != kNone && buffer < kMaxTransformFeedbackBuffers) out_.stride[buffer] = md.stride;
          if (d.stride != kNone && buffer < kMaxTransformFeedbackBuffers) out_.stride[buffer] = d.stride;
          const uint32_t locations = locationsOf(t->second.members[m]);
          if (md.offset != kNone)
            captureObject(t->second.members[m], md, buffer, location, md.offset, md.stream != kNone ? md.stream : stream);
          if (md.builtIn == kNone) location += locations;
        }
    }
    for (const FeedbackOutput& o : out_.outputs) out_.bufferMask |= 1u << o.buffer;
    for (uint32_t b = 0; b < kMaxTransformFeedbackBuffers; ++b)
      if (out_.bufferMask >> b & 1) out_.streamMask |= 1u << out_.bufferStream[b];
    return true;
  }

 private:
  // The words are read before any validation, so types may refer to themselves or nest
  // without end (found by fuzz/spirv_jit_fuzzer: a self-referencing type overflowed the stack
  // in alignmentOf). Real modules nest a few levels: past kMaxDepth the reader gives up on
  // the type (unsupportedOutputs), as it does on arrays longer than any stage's outputs.
  static constexpr int kMaxDepth = 64;
  static constexpr uint32_t kMaxCapturedElements = 4096;
  int depth_ = 0;
  struct Nest {
    int& depth;
    explicit Nest(int& d) : depth(d) { ++depth; }
    ~Nest() { --depth; }
  };
  bool tooDeep() {
    if (depth_ <= kMaxDepth) return false;
    out_.unsupportedOutputs = true;
    return true;
  }

  // Locations a non-built-in object of `type` takes ("Location Assignment").
  uint32_t locationsOf(uint32_t type) {
    Nest nest(depth_);
    auto it = types_.find(type);
    if (it == types_.end() || tooDeep()) return 1;
    const Type& t = it->second;
    switch (t.op) {
      case kOpTypeVector: {
        const uint32_t width = types_.count(t.element) ? types_[t.element].width : 32;
        return width == 64 && t.count > 2 ? 2 : 1;
      }
      case kOpTypeMatrix: return t.count * locationsOf(t.element);
      case kOpTypeArray: return t.count * locationsOf(t.element);
      case kOpTypeStruct: {
        uint32_t n = 0;
        for (uint32_t m : t.members) n += locationsOf(m);
        return n;
      }
      default: return 1;
    }
  }

  // Whether `type` holds a 64-bit component: then it starts at a multiple of 8 bytes, like a
  // double's own Offset (GLSL's xfb_offset rules, which glslang and the CTS follow for members
  // that carry no Offset of their own).
  uint32_t alignmentOf(uint32_t type) {
    Nest nest(depth_);
    auto it = types_.find(type);
    if (it == types_.end() || tooDeep()) return 4;
    const Type& t = it->second;
    switch (t.op) {
      case kOpTypeInt:
      case kOpTypeFloat: return t.width == 64 ? 8 : 4;
      case kOpTypeStruct: {
        uint32_t a = 4;
        for (uint32_t m : t.members) a = std::max(a, alignmentOf(m));
        return a;
      }
      default: return alignmentOf(t.element);
    }
  }

  // Bytes `type` takes in a buffer: components tightly packed, structure members each at the
  // next multiple of their alignment, a structure's size a multiple of its own.
  uint32_t bytesOf(uint32_t type) {
    Nest nest(depth_);
    auto it = types_.find(type);
    if (it == types_.end() || tooDeep()) return 4;
    const Type& t = it->second;
    switch (t.op) {
      case kOpTypeInt:
      case kOpTypeFloat: return t.width == 64 ? 8 : 4;
      case kOpTypeVector:
      case kOpTypeMatrix:
      case kOpTypeArray: return t.count * bytesOf(t.element);
      case kOpTypeStruct: {
        uint32_t n = 0;
        for (uint32_t m : t.members) n = alignUp(n, alignmentOf(m)) + bytesOf(m);
        return alignUp(n, alignmentOf(type));
      }
      default: return 4;
    }
  }

  static uint32_t alignUp(uint32_t n, uint32_t a) { return (n + a - 1) / a * a; }

  void add(FeedbackOutput::Source source, uint32_t buffer, uint32_t first, uint32_t words, uint32_t offset) {
    if (words == 0) return;
    out_.outputs.push_back(FeedbackOutput{source, uint8_t(buffer), uint16_t(words), first, offset});
    if (source == FeedbackOutput::Source::Location)
      for (uint32_t w = first; w < first + words; ++w)
        if (w / 4 < 32) out_.locationMask |= 1u << (w / 4);
  }

  // An object (variable or member) with an Offset: its elements "written tightly packed in
  // order", vectors component by component, matrices as arrays of columns.
  void captureObject(uint32_t type, const Decorations& d, uint32_t buffer, uint32_t location, uint32_t offset,
                     uint32_t stream) {
    if (buffer >= kMaxTransformFeedbackBuffers || stream >= kMaxTransformFeedbackStreams) {
      out_.unsupportedOutputs = true;
      return;
    }
    // Each buffer belongs to one stream: "all outputs captured to a given transform feedback
    // buffer must be in the same vertex stream" (a module breaking that is invalid; the
    // buffer keeps the stream of its first output, and only that stream's vertices reach it).
    if (!(streamAssigned_ >> buffer & 1)) {
      out_.bufferStream[buffer] = uint8_t(stream);
      streamAssigned_ |= 1u << buffer;
    } else if (out_.bufferStream[buffer] != stream) {
      out_.unsupportedOutputs = true;
      return;
    }
    if (d.stride != kNone) out_.stride[buffer] = d.stride;
    if (d.builtIn != kNone) {
      if (d.builtIn == kBuiltInPosition) add(FeedbackOutput::Source::Position, buffer, 0, std::min(bytesOf(type) / 4, 4u), offset);
      else if (d.builtIn == kBuiltInPointSize) {
        add(FeedbackOutput::Source::PointSize, buffer, 0, 1, offset);
        out_.pointSize = true;
      } else if (d.builtIn == kBuiltInClipDistance || d.builtIn == kBuiltInCullDistance) {
        // Arrays of floats, element by element (the draw keeps at most maxClipDistances).
        const auto source = d.builtIn == kBuiltInClipDistance ? FeedbackOutput::Source::ClipDistance
                                                              : FeedbackOutput::Source::CullDistance;
        add(source, buffer, 0, std::min(bytesOf(type) / 4, 8u), offset);
      } else {
        out_.unsupportedOutputs = true;  // other built-ins: not kept by the draw
      }
      return;
    }
    captureLocations(type, buffer, location, d.component, offset);
  }

  // Captures `type` at (location, component), returns nothing: offsets advance tightly.
  void captureLocations(uint32_t type, uint32_t buffer, uint32_t location, uint32_t component, uint32_t offset) {
    Nest nest(depth_);
    if (tooDeep()) return;
    auto it = types_.find(type);
    const uint32_t op = it == types_.end() ? kOpTypeFloat : it->second.op;
    if (op == kOpTypeInt || op == kOpTypeFloat || op == kOpTypeVector) {
      add(FeedbackOutput::Source::Location, buffer, location * 4 + component, bytesOf(type) / 4, offset);
      return;
    }
    const Type t = it->second;
    if (op == kOpTypeMatrix || op == kOpTypeArray) {
      if (t.count > kMaxCapturedElements) {
        out_.unsupportedOutputs = true;
        return;
      }
      const uint32_t elementLocations = locationsOf(t.element), elementBytes = bytesOf(t.element);
      for (uint32_t i = 0; i < t.count; ++i)
        captureLocations(t.element, buffer, location + i * elementLocations, component, offset + i * elementBytes);
      return;
    }
    if (op == kOpTypeStruct) {
      for (uint32_t m : t.members) {
        offset = alignUp(offset, alignmentOf(m));
        captureLocations(m, buffer, location, 0, offset);
        location += locationsOf(m);
        offset += bytesOf(m);
      }
      return;
    }
    out_.unsupportedOutputs = true;
  }

  FeedbackLayout& out_;
  uint32_t streamAssigned_ = 0;  // bit b: bufferStream[b] is set
  std::unordered_map<uint32_t, Decorations> decorations_;
  std::map<std::pair<uint32_t, uint32_t>, Decorations> memberDecorations_;
  std::unordered_map<uint32_t, Type> types_;
  std::unordered_map<uint32_t, uint32_t> pointee_, constants_;
  std::unordered_map<uint32_t, uint32_t> outputVariables_;  // id -> pointer type
};

}  // namespace

FeedbackLayout readFeedbackLayout(std::span<const uint32_t> spirv, std::string_view entryPoint, GraphicsStage stage) {
  FeedbackLayout layout;
  const uint32_t model = stage == GraphicsStage::Vertex      ? 0
                         : stage == GraphicsStage::TessEval   ? 2
                         : stage == GraphicsStage::Geometry   ? 3
                                                              : kNone;
  if (model == kNone) return layout;
  Reader reader(layout);
  if (!reader.parse(spirv, entryPoint, model)) return FeedbackLayout{};
  return layout;
}

}  // namespace tessera::jit
