// A parsed SPIR-V module: ids, types, constants, decorations, global variables, entry points
// and functions split into blocks. The parser assumes a module that SPIRV-Tools has already
// validated; it still never reads past the end of the words and reports what it cannot parse.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

namespace tessera::jit {

// One instruction: opcode, optional result type and id, then its remaining operand words.
struct Instruction {
  spv::Op op = spv::Op::OpNop;
  uint32_t type = 0;    // result type id, 0 if none
  uint32_t result = 0;  // result id, 0 if none
  const uint32_t* operands = nullptr;
  uint32_t operandCount = 0;

  uint32_t operand(uint32_t i) const { return i < operandCount ? operands[i] : 0; }
  // A literal string starting at operand i; *next receives the operand index after it.
  std::string_view string(uint32_t i, uint32_t* next = nullptr) const;
};

enum class TypeKind : uint8_t {
  Void, Bool, Int, Float, Vector, Matrix, Array, RuntimeArray, Struct, Pointer, Function,
  Image, Sampler, SampledImage, Other
};

struct ImageInfo {
  spv::Dim dim = spv::Dim::Dim2D;
  uint32_t depth = 0, arrayed = 0, multisampled = 0, sampled = 0;
  spv::ImageFormat format = spv::ImageFormat::Unknown;
};

struct Type {
  TypeKind kind = TypeKind::Other;
  uint32_t width = 0;      // Int, Float: bits
  bool isSigned = false;   // Int
  uint32_t element = 0;    // Vector component, Matrix column, (Runtime)Array element,
                           // Pointer pointee, Image sampled type, SampledImage image
  uint32_t count = 0;      // Vector components, Matrix columns, Array length
  spv::StorageClass storage = spv::StorageClass::Function;  // Pointer
  std::vector<uint32_t> members;  // Struct members; Function: return type then parameters
  ImageInfo image;
};

enum class ConstantKind : uint8_t { None, Scalar, Bool, Composite, Null, Undef, SpecOp };

struct Constant {
  ConstantKind kind = ConstantKind::None;
  uint32_t type = 0;
  uint64_t bits = 0;                 // Scalar: the value's bits (zero-extended); Bool: 0/1
  std::vector<uint32_t> constituents;  // Composite
  Instruction operation;               // SpecOp: the OpSpecConstantOp (operand 0 is the opcode)
};

// Decorations that change code generation, for an id or a struct member.
struct Decorations {
  std::optional<uint32_t> builtIn, location, component, binding, descriptorSet, offset,
      arrayStride, matrixStride, specId, index, inputAttachmentIndex;
  bool rowMajor = false, block = false, bufferBlock = false, noContraction = false,
       flat = false, noPerspective = false, centroid = false, sample = false, patch = false,
       nonWritable = false, nonReadable = false, volatile_ = false, coherent = false,
       restrict_ = false, aliased = false, nonUniform = false, relaxedPrecision = false;
  std::optional<spv::FPRoundingMode> roundingMode;
};

struct Block {
  uint32_t label = 0;
  std::vector<Instruction> phis;          // OpPhi, in order
  std::vector<Instruction> body;          // everything between the phis and the merge/terminator
  spv::Op mergeKind = spv::Op::OpNop;     // OpSelectionMerge, OpLoopMerge or OpNop
  uint32_t mergeBlock = 0;
  uint32_t continueTarget = 0;            // loop headers only
  Instruction terminator;
  std::vector<uint32_t> successors;       // in terminator operand order, duplicates removed
};

struct Function {
  uint32_t id = 0;
  uint32_t resultType = 0;
  uint32_t functionType = 0;
  std::vector<Instruction> parameters;  // OpFunctionParameter
  std::vector<Block> blocks;            // in module order; blocks[0] is the entry
  std::unordered_map<uint32_t, uint32_t> blockIndex;  // label -> index in blocks
};

struct EntryPoint {
  spv::ExecutionModel model = spv::ExecutionModel::GLCompute;
  uint32_t function = 0;
  std::string name;
  std::vector<uint32_t> interface;
  uint32_t localSize[3] = {1, 1, 1};
  uint32_t localSizeIds[3] = {0, 0, 0};  // LocalSizeId operands (0 when given as literals)
  std::vector<Instruction> executionModes;
};

struct GlobalVariable {
  uint32_t id = 0;
  uint32_t type = 0;  // pointer type
  spv::StorageClass storage = spv::StorageClass::Private;
  uint32_t initializer = 0;
};

class Module {
 public:
  // Parses words (the module keeps its own copy). Returns false with *error set on failure.
  bool parse(std::span<const uint32_t> words, std::string* error);

  uint32_t bound() const { return bound_; }
  uint32_t version() const { return version_; }
  const Type* type(uint32_t id) const { return id < types_.size() && types_[id] ? &*types_[id] : nullptr; }
  const Constant* constant(uint32_t id) const;
  const Decorations& decorations(uint32_t id) const;
  const Decorations& memberDecorations(uint32_t structId, uint32_t member) const;
  const GlobalVariable* global(uint32_t id) const;
  const Function* function(uint32_t id) const;
  const std::vector<Function>& functions() const { return functions_; }
  const std::vector<GlobalVariable>& globals() const { return globals_; }
  const std::vector<EntryPoint>& entryPoints() const { return entryPoints_; }
  const EntryPoint* findEntryPoint(std::string_view name, spv::ExecutionModel model) const;
  bool isExtInstSet(uint32_t id, std::string_view name) const;
  bool hasCapability(spv::Capability c) const;
  const std::string* name(uint32_t id) const;
  // The instruction that defines a result id at module scope (types, constants, variables,
  // undefs), or nullptr.
  const Instruction* globalDefinition(uint32_t id) const;

  // The result type of any id defined with one (0 for types, labels, functions' own ids).
  uint32_t resultTypeOf(uint32_t id) const { return id < resultTypes_.size() ? resultTypes_[id] : 0; }
  // Words per case literal of an OpSwitch (1 or 2, from the selector's width).
  uint32_t switchLiteralWords(const Instruction& sw) const;

  // Scalar value of an integer constant (spec constants already frozen by the optimizer).
  std::optional<uint64_t> constantValue(uint32_t id) const;

 private:
  bool parseInstruction(const Instruction& inst, std::string* error);
  // Value of an OpSpecConstantOp on scalar integer/boolean constants; nullopt if unsupported.
  std::optional<Constant> evaluateSpecConstantOp(const Instruction& inst) const;
  bool addFunctionInstruction(const Instruction& inst, std::string* error);

  std::vector<uint32_t> words_;
  uint32_t bound_ = 0;
  uint32_t version_ = 0;
  std::vector<std::optional<Type>> types_;
  std::vector<uint32_t> resultTypes_;
  std::unordered_map<uint32_t, Constant> constants_;
  std::unordered_map<uint32_t, Decorations> decorations_;
  std::unordered_map<uint64_t, Decorations> memberDecorations_;
  std::vector<GlobalVariable> globals_;
  std::unordered_map<uint32_t, uint32_t> globalIndex_;
  std::vector<Function> functions_;
  std::unordered_map<uint32_t, uint32_t> functionIndex_;
  std::vector<EntryPoint> entryPoints_;
  std::unordered_map<uint32_t, std::string> extInstSets_;
  std::vector<spv::Capability> capabilities_;
  std::unordered_map<uint32_t, std::string> names_;
  std::unordered_map<uint32_t, Instruction> globalDefs_;

  // Function being parsed.
  Function* current_ = nullptr;
  Block* currentBlock_ = nullptr;
};

}  // namespace tessera::jit
