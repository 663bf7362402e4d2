// SPIR-V -> SIMD LLVM IR. One lane per invocation: a uniform value is an LLVM scalar, a
// varying one a <W x T> vector (uniformity.h decides which). Composite values are flattened
// into their scalar components ("leaves"), each its own LLVM value, so a vec4 is four lane
// vectors (structure of arrays). Control flow runs under lane masks in structured order
// (structured_cfg.h): every block has a mask slot that its predecessors OR their edge masks
// into; a block whose mask is empty is skipped; loops jump back while their header's mask is
// non-empty.
//
// The translator is split by instruction family:
//   translator.cpp            module/function set-up, values, blocks, masks, phis, branches, calls
//   translate_arith.cpp       integer/float/bool arithmetic, comparisons, conversions, bit ops
//   translate_composite.cpp   composites, vector shuffles, matrices, dot products
//   translate_memory.cpp      variables, access chains, loads/stores, descriptors, robustness
//   translate_glsl.cpp        GLSL.std.450
//   translate_atomic.cpp      atomics, barriers
//   translate_subgroup.cpp    subgroup operations
//   translate_image.cpp       storage images and texel buffers
//   translate_compute.cpp     compute entry point: built-ins and the kernel function
#pragma once

#include <array>

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "shader_interface.h"
#include "spirv_module.h"
#include "structured_cfg.h"
#include "tessera/shader_abi.h"
#include "type_layout.h"
#include "uniformity.h"

namespace tessera::jit {

// A SPIR-V value: its flattened scalar components. Each leaf is an LLVM scalar (uniform) or a
// <W x T> vector (varying). Booleans are i1; pointers inside composites are i64 addresses.
struct Val {
  std::vector<llvm::Value*> leaves;
  llvm::Value* leaf(size_t i = 0) const { return i < leaves.size() ? leaves[i] : nullptr; }
};

// A SPIR-V pointer. Address of lane l = base + offset[l] (+ leaf offset), except for
// per-invocation memory (Function, Private, Output), which is stored lane-interleaved: a
// scalar at natural offset o of lane l lives at base + W*o + l*size(scalar), so that a
// uniform offset gives one contiguous <W x T> vector.
struct Ptr {
  enum class Kind : uint8_t { Memory, LaneMemory, BuiltIn, DescriptorArray, Image, Null };
  Kind kind = Kind::Null;
  spv::StorageClass storage = spv::StorageClass::Function;
  uint32_t pointee = 0;          // SPIR-V type of what it points to
  LayoutContext context;         // layout facts for that type (matrix/vector strides)
  llvm::Value* base = nullptr;   // ptr (scalar); null means offset is an absolute address
  llvm::Value* offset = nullptr; // i32 (offset32) or i64, scalar or vector
  bool offset32 = false;
  llvm::Value* limit = nullptr;  // bytes accessible from base (i64 scalar or vector); null = no check
  // Lowest accessible offset, for pointers whose offsets are absolute addresses and that have a
  // limit (per-lane descriptors): [floor, limit) is the bound range. Null means 0.
  llvm::Value* floor = nullptr;
  // BuiltIn: which built-in variable, and the component selected (scalar or vector i32) if any.
  uint32_t variable = 0;
  llvm::Value* component = nullptr;
  // DescriptorArray: the binding's first descriptor address.
  const DescriptorBinding* binding = nullptr;
  // DescriptorArray chosen by an OpSelect between two bindings' arrays (variable pointers): the
  // lanes where `choice` (i1, scalar or vector) is true take `binding`, the others
  // `otherBinding`; an access chain into it selects between the two elements' pointers.
  const DescriptorBinding* otherBinding = nullptr;
  llvm::Value* choice = nullptr;
  llvm::Value* validLanes = nullptr;  // texel pointers: lanes whose coordinates are in range
};

// One scalar of a graphics interface variable (or of a built-in output): where it lives in the
// kernel's per-lane storage and where it travels in the batch (translate_graphics.cpp).
struct InterfaceLeaf {
  uint32_t type = 0;         // scalar type id
  uint32_t offset = 0;       // natural offset in the private block
  uint32_t location = 0, component = 0;
  bool flat = false, noPerspective = false, centroid = false;
  int32_t builtIn = -1;      // spv::BuiltIn of a built-in output member, or -1
  uint32_t builtInElement = 0;  // array element (ClipDistance[i], SampleMask[i]) or vector component
  uint32_t vertex = 0;       // geometry inputs: the input vertex (the outer array index)
  // Tessellation stages: a per-patch value (Patch-decorated, TessLevelOuter/Inner) rather than
  // one per vertex; and for a control shader's per-vertex outputs, the bytes from one output
  // vertex's element to the next (the leaf's offset is element 0's).
  bool patch = false;
  uint32_t vertexStride = 0;
  // A 64-bit scalar travels between stages as two 32-bit words, each a leaf of its own with its
  // own (location, component) ("Location Assignment": two components per double): `half` is 0
  // for the low word and 1 for the high word, and the two leaves are adjacent in the list.
  uint8_t half = 0;
};

class Translator;
// A batch word vector (<W x i32>) as an interface leaf of SPIR-V scalar type `type`
// (translate_graphics.cpp).
// A 64-bit type takes its high word from `highWords`; leafToWords gives the word `half` of it.
llvm::Value* wordsToLeaf(Translator& t, llvm::Value* words, uint32_t type, llvm::Value* highWords = nullptr);
llvm::Value* leafToWords(Translator& t, llvm::Value* leaf, uint32_t type, uint32_t half = 0);

class Translator {
 public:
  Translator(const Module& module, const ShaderInterface& interface, llvm::LLVMContext& context, llvm::Module& out);
  ~Translator();

  // Translates the compute entry point into `kernelName` with the abi::ComputeBatchFn
  // signature. Returns false with *error set when the module uses something unsupported.
  bool translateCompute(const EntryPoint& entry, const std::string& kernelName, std::string* error);
  // Translates a vertex or fragment entry point into `kernelName` with the
  // abi::VertexBatchFn / abi::FragmentBatchFn signature (translate_graphics.cpp); fills
  // *facts with what the draw loop needs to know about its interface.
  bool translateGraphics(const EntryPoint& entry, const std::string& kernelName, GraphicsFacts* facts,
                         std::string* error);

  // Facts gathered during translation, needed to run the kernel.
  uint32_t sharedMemoryBytes() const { return sharedBytes_; }
  // Whether memory of storage class `sc` is laid out by the types' explicit decorations
  // (buffers, push constants; Workgroup memory under WorkgroupMemoryExplicitLayoutKHR).
  bool explicitLayoutStorage(spv::StorageClass sc) const;
  // Bytes of the per-invocation memory on a batch's stack (Function and Private variables,
  // W lane copies each, every function's counted: there is no recursion).
  uint64_t stackBytes() const { return allocaBytes_ + uint64_t(privateBytes_) * width(); }
  bool usesBarrier() const { return usesBarrier_; }
  // A compute kernel whose workgroup barriers suspend it as an LLVM coroutine (see
  // translate_barrier_coroutine.cpp) rather than switch fibers.
  bool resumable() const { return resumable_; }
  bool zeroInitShared() const { return zeroInitShared_; }
  void localSize(uint32_t out[3]) const {
    for (int i = 0; i < 3; ++i) out[i] = localSize_[i];
  }

  // ---- used by the per-family translation files -------------------------------------------
  llvm::IRBuilder<>& b() { return *builder_; }
  uint32_t width() const { return interface_.simdWidth; }
  const Module& spirv() const { return module_; }
  llvm::LLVMContext& context() { return context_; }
  llvm::Module& llvmModule() { return out_; }

  // Types.
  llvm::Type* scalarType(uint32_t spirvType);     // leaf type of a scalar (or pointer) SPIR-V type
  llvm::Type* laneType(llvm::Type* scalar) const;  // <W x scalar>
  bool isVarying(uint32_t id) const { return uniformity_->isVarying(id); }
  uint32_t componentType(uint32_t type) const;     // scalar type of a scalar or vector type
  bool isPointerType(uint32_t type) const;
  uint32_t componentCount(uint32_t type) const;    // 1 for scalars, N for vectors
  std::vector<uint32_t> leafTypes(uint32_t type) const;  // scalar type of every flattened leaf
  // Values are translated as one LLVM value per scalar (leaf), and a block that moves many
  // leaves through memory costs LLVM's instruction scheduler about the square of their number
  // (measured, a 1024-, 2048- and 4096-float array copied whole: 1.3, 3.5 and 11 s to compile;
  // the fuzzer found a 41 s one). So a composite value may have at most kMaxValueScalars
  // leaves, and the composite values of more than kCountedValueScalars leaves that a module
  // loads, stores, makes or operates on may have kMaxModuleValueScalars in all (an insertion
  // counts the object it inserts; extractions, copies and undefs make no code); beyond either
  // the module is refused, with a message, before its leaves are made (issue 14, "bounded
  // compile time"). Variables and memory of any size within the memory limits are fine, and so
  // is element-wise access; a null initializer is a fill (zeroStorage) and an assignment of a
  // composite just loaded a copy (copyStorage), neither a value.
  static constexpr uint64_t kMaxValueScalars = 2048;
  static constexpr uint64_t kCountedValueScalars = 16;  // a mat4: real shaders move many
  static constexpr uint64_t kMaxModuleValueScalars = 4096;
  // Fails (naming the limit) when a value of `type` would have more than kMaxValueScalars leaves.
  void checkValueSize(uint32_t type) const;
  // checkValueSize, and adds a composite value of `type` to the module's total (failing past it).
  void countValue(uint32_t type);
  // Stores a variable's initializer (a constant, or a variable's address) into its storage p.
  void initializeVariable(const Ptr& p, uint32_t initializer);
  // Zeroes p's pointee in the active lanes without making a value of it; false where it cannot.
  bool zeroStorage(const Ptr& p);
  // Copies src's pointee to dst's (the same type) in the active lanes, memory to memory; false,
  // doing nothing, where it cannot (then the value's leaves are stored).
  bool copyStorage(const Ptr& dst, const Ptr& src);
  // p's pointee as rows of W scalars of one size (Function/Private lane memory); false if not.
  bool laneRows(const Ptr& p, uint64_t* rows, uint32_t* scalarBytes, llvm::Value** start);
  llvm::Value* laneBits();  // the active lanes as an i32 bit mask, for the runtime helpers
  // True when `type` holds a pointer anywhere (its null value is then not all zero bits).
  bool holdsPointer(uint32_t type) const;
  // A pointer into PhysicalStorageBuffer: a value (its 64-bit address) that phis, selects and
  // function results may carry without variable pointers.
  bool isPhysicalPointerType(uint32_t type) const;

  // Values.
  Val value(uint32_t id);
  llvm::Value* scalarValue(uint32_t id) { return value(id).leaf(0); }
  Ptr pointer(uint32_t id);
  void define(uint32_t id, Val v);
  void definePointer(uint32_t id, Ptr p);
  Val constant(uint32_t id);
  Val specConstantOp(uint32_t id, const Constant& c);

  // SIMD helpers.
  llvm::Value* splat(llvm::Value* v);                     // scalar -> <W x T>; vectors unchanged
  llvm::Value* laneIndex();                               // <0, 1, ..., W-1> as i32
  llvm::Value* any(llvm::Value* mask);                    // i1: some lane set
  llvm::Value* all(llvm::Value* mask);                    // i1: every lane set
  llvm::Value* allOnes();                                 // <W x i1> true
  llvm::Value* mask() const { return mask_; }             // active lanes of the current block
  void setMask(llvm::Value* m) { mask_ = m; }
  bool isVector(llvm::Value* v) const { return v->getType()->isVectorTy(); }
  // Makes a and b the same shape (broadcasting a scalar when the other is a vector).
  void unify(llvm::Value*& a, llvm::Value*& c);
  void unify(llvm::Value*& a, llvm::Value*& c, llvm::Value*& d);
  // Lane-wise select of values that may be scalar or vector (cond scalar or vector).
  llvm::Value* select(llvm::Value* cond, llvm::Value* t, llvm::Value* f);
  llvm::Value* extractLane(llvm::Value* v, llvm::Value* lane);  // scalar v passes through
  // A vector known to be uniform over the active lanes -> its scalar value (first active lane).
  llvm::Value* uniformize(llvm::Value* v, llvm::Value* activeMask = nullptr);
  llvm::Value* constInt(llvm::Type* t, uint64_t v);
  // Emits a per-lane loop over the active lanes of `laneMask`, calling body(lane i32 value).
  void forEachActiveLane(llvm::Value* laneMask, const std::function<void(llvm::Value* lane)>& body);
  // Calls a runtime helper (tessera_rt_*), declaring it on first use.
  llvm::FunctionCallee runtime(const char* name, llvm::FunctionType* type);
  // An alloca in the current function's prologue (dominates everything).
  llvm::AllocaInst* entryAlloca(llvm::Type* type, uint32_t align);

  // Memory (translate_memory.cpp).
  Val loadFrom(const Ptr& p, uint32_t type);
  void storeTo(const Ptr& p, const Val& v, uint32_t type);
  llvm::Value* elementAddress(const Ptr& p, uint32_t leafOffset, llvm::Type* leafType, llvm::Value** inBounds);
  // elementStride: for OpPtrAccessChain, the ArrayStride of the base pointer's type (0: none).
  Ptr accessChain(Ptr base, const uint32_t* indices, uint32_t count, bool ptrAccessChain, uint32_t elementStride = 0);
  llvm::Value* pointerToAddress(const Ptr& p);      // i64 (scalar or vector) absolute address
  Ptr addressToPointer(llvm::Value* address, uint32_t pointerType);
  // Variable pointers (VK_KHR_variable_pointers: OpSelect, OpPhi, function results, pointers
  // kept in Function / Private variables): a logical pointer as a value of three i64 leaves,
  // {address, floor, limit}, all absolute, each scalar or per lane, so lane i may point into
  // buffer A and lane j into buffer B and both stay within their own descriptor's range
  // (type_layout.h: kVariablePointerLeaves). pointerValue makes one from a Memory pointer
  // (a pointer without a limit gets [0, 2^64)); pointerFromValue turns it back into an
  // absolute Memory pointer that every access bounds-checks against [floor, limit).
  bool isVariablePointer(uint32_t pointerType) const { return isVariablePointerType(module_.type(pointerType)); }
  Val pointerValue(const Ptr& p);
  Ptr pointerFromValue(const Val& v, uint32_t pointerType);
  // What a phi, a return or a store carries for id of type `type`: a physical pointer's
  // address, a variable pointer's leaves, else the value.
  Val pointerOrValue(uint32_t id, uint32_t type);
  // OpConstantNull / OpUndef of a pointer type: address 0; a logical one with an empty range.
  Ptr nullPointer(uint32_t pointerType);

  // Which kind of kernel is being built.
  enum class Stage : uint8_t { Compute, Vertex, Fragment, Geometry, TessControl, TessEval };
  Stage stage() const { return stage_; }
  // Lanes whose memory side effects (buffer and image stores, atomics) happen: the active
  // lanes, less fragment helper invocations (uncovered or demoted).
  llvm::Value* sideEffectMask();
  // Fragment quads: derivatives of a float value (scalar or vector leaf) across each 2x2 quad.
  llvm::Value* quadDerivative(llvm::Value* v, bool yDirection, bool coarse);
  // GLSL.std.450 InterpolateAtCentroid / InterpolateAtSample / InterpolateAtOffset: the
  // interpolant (operand 2) evaluated at the instruction's location (translate_graphics.cpp).
  Val interpolateAt(const Instruction& inst);

  // Environment of the current invocation batch.
  llvm::Value* workgroupState() const { return wgState_; }
  // Records that the kernel reads FragmentBatch::fragCoord components `bits` (GraphicsFacts).
  void noteFragCoordReads(uint8_t bits) {
    if (facts_) facts_->fragCoordReads |= bits;
  }
  void noteInputAttachmentRead() {
    if (facts_) facts_->readsInputAttachments = true;
  }
  llvm::Value* batchIndex() const { return batch_; }
  llvm::Value* resources() const { return resources_; }
  // The word whose non-zero value cancels the device's work (BoundResources::cancel).
  llvm::Value* cancelWord();
  llvm::Value* viewIndex();  // ViewIndex of a graphics stage (an i32, uniform)
  // The InlineSampleState entry of the kernel's next inlinable sampling instruction (they take
  // FragmentBatch::inlineSampling's entries in turn); kInlineSampleSlots or more: none, that
  // instruction calls the runtime (abi::kInlineSampleSlots says why).
  uint32_t takeInlineSampleSlot() { return inlineSampleSlots_++; }

  [[noreturn]] void fail(const std::string& message);

 private:
  friend struct ArithmeticTranslation;
  bool translateInstruction(const Instruction& inst);
  bool translateArithmetic(const Instruction& inst);
  bool translateComposite(const Instruction& inst);
  bool translateMemory(const Instruction& inst);
  bool translateGlsl(const Instruction& inst);
  bool translateAtomicOrBarrier(const Instruction& inst);
  // translate_barrier_coroutine.cpp
  static bool barriersOnlyInEntry(const Module& module, uint32_t entryFunction);
  void beginCoroutine();
  void suspendAtBarrier();
  void finishCoroutine();
  bool translateSubgroup(const Instruction& inst);
  bool translateImage(const Instruction& inst);
  // OpReadClockKHR (translate_clock.cpp).
  void emitReadClock(const Instruction& inst);

  // Functions and control flow (translator.cpp).
  struct FunctionState;
  llvm::Function* declareFunction(const Function& f);
  void translateFunctionBody(const Function& f, llvm::Function* fn, bool isEntry);
  void emitBlock(uint32_t blockIndex);
  void findIterationLoops(FunctionState& st);
  void iterationLocalSlot(uint32_t id, llvm::AllocaInst* slot);
  bool staysInItsLoop(uint32_t id) const;
  Val subgroupBuiltInValue(spv::BuiltIn builtIn);  // SubgroupSize, SubgroupLocalInvocationId, Subgroup*Mask
  void findSteppingPhis(FunctionState& st);
  llvm::Constant* laneOffsets(llvm::Value* leaf);
  void emitTerminator(uint32_t blockIndex);
  void propagateEdge(uint32_t from, uint32_t toLabel, llvm::Value* edgeMask);
  void emitFunctionCall(const Instruction& inst);
  llvm::Value* loadSlot(llvm::AllocaInst* slot);

  // Graphics entries (translate_graphics.cpp).
  void setupGraphicsEnvironment();
  // Vertex stages: each input leaf into its private slot, fetched from the vertex buffers by the
  // kernel where the attribute's format allows, else read from `inputs` (translate_vertex_fetch.cpp).
  void loadVertexInputs(llvm::Value* inputs);
  void emitGraphicsEpilogue();
  // A graphics output leaf's value as the words the batch carries (<W x i32>).
  llvm::Value* outputLeafWords(const InterfaceLeaf& l);
  // Every input leaf's batch words (wordsOf) into its private slot; the two leaves of a 64-bit
  // scalar are stored together as one value.
  // Stores every input leaf's value (wordsOf: its batch words) into the private block. With
  // a vertexCount (tessellation inputs: one element per control point), the elements of
  // vertices at or past the count are not stored: the caller emits this into a function of
  // its own, whose blocks cannot disturb the prologue (loadTessellationInputs).
  void storeInputLeaves(llvm::function_ref<llvm::Value*(const InterfaceLeaf&)> wordsOf,
                        llvm::Value* vertexCount = nullptr);
  // Fragment colour locations (bits) whose four components are 32-bit float leaves, which the
  // kernel can write into 8-bit UNORM attachments itself; `leaves` gets each component's index
  // in outputLeaves_ (translate_direct_color.cpp).
  uint32_t directColorCandidates(std::array<std::array<int, 4>, abi::kMaxColorAttachments>* leaves) const;
  // After the epilogue and the final alive bits: per candidate location, encode and store into
  // FragmentBatch::direct's attachment when one is named, else store the words.
  void emitDirectColorWrites();
  Val graphicsBuiltInValue(spv::BuiltIn builtIn, uint32_t type);
  bool translateFragmentOp(const Instruction& inst);
  // Geometry entries (translate_geometry.cpp): execution modes, per-vertex inputs, built-ins,
  // OpEmitVertex / OpEndPrimitive.
  void readGeometryModes(const EntryPoint& entry);
  void collectGeometryInput(const GlobalVariable& g, const Decorations& d, uint32_t arrayType);
  void finishGeometryInterface();
  void loadGeometryInputs();
  bool translateGeometryOp(const Instruction& inst);
  void emitGeometryVertex(uint32_t stream);
  void endGeometryPrimitive(uint32_t stream);
  uint32_t geometryStreamOperand(const Instruction& inst);
  Val geometryBuiltInValue(spv::BuiltIn builtIn);
  // Tessellation entries (translate_tessellation.cpp): execution modes, inputs per control
  // point and per patch, the control stage's outputs in patch memory and its epilogue.
  void readTessellationModes(const EntryPoint& entry);
  void collectTessellationVariable(const GlobalVariable& g, const Decorations& d, bool input);
  void loadTessellationInputs();
  void emitTessControlEpilogue();
  Val tessellationBuiltInValue(spv::BuiltIn builtIn);
  llvm::Value* tessControlActive_ = nullptr;  // the control kernel's active lanes at entry
  // Record word of each output location (abi::GeometryBatch), -1 where not written.
  int32_t geometryLocationWord_[abi::kMaxInterfaceLocations] = {};
  void collectInterface();
  llvm::Value* batchField(size_t offset, llvm::Type* type);
  llvm::Value* aliveMask();  // FragmentBatch::alive as <W x i1>

  // Compute entry (translate_compute.cpp).
  void setupComputeEnvironment(const EntryPoint& entry);
  void initializePrivateVariables();
  void assignGlobalStorage();
  void materializeGlobal(uint32_t id);
  Ptr makeGlobalPointer(const GlobalVariable& g);

 public:
  Val builtInValue(spv::BuiltIn builtIn, uint32_t type);

 private:

  const Module& module_;
  const ShaderInterface& interface_;
  llvm::LLVMContext& context_;
  llvm::Module& out_;
  std::unique_ptr<llvm::IRBuilder<>> builder_;
  std::unique_ptr<Uniformity> uniformity_;
  TypeLayout naturalLayout_;
  TypeLayout explicitLayout_;

  // Per-module state.
  std::unordered_map<uint32_t, Val> constants_;
  uint64_t moduleValueScalars_ = 0;  // countValue's total
  uint32_t constantNesting_ = 0;     // > 0 while constant() builds a composite's constituents
  // The composite OpLoad just translated (its result and source), for the OpStore right after
  // it to copy memory to memory (copyStorage); cleared at every other instruction.
  struct CompositeLoad {
    uint32_t result = 0;
    Ptr source;
  };
  CompositeLoad lastCompositeLoad_;
  std::unordered_map<uint32_t, Ptr> globalPointers_;
  std::unordered_map<uint32_t, llvm::Function*> functions_;
  std::unordered_map<uint32_t, StructuredCfg> cfgs_;
  uint32_t sharedBytes_ = 0;
  uint32_t inlineSampleSlots_ = 0;
  uint32_t privateBytes_ = 0;
  uint64_t allocaBytes_ = 0;  // entryAlloca sizes
  std::unordered_map<uint32_t, uint32_t> privateOffsets_;  // Private/Output variable -> natural offset
  std::unordered_map<uint32_t, uint32_t> sharedOffsets_;   // Workgroup variable -> byte offset
  // WorkgroupMemoryExplicitLayoutKHR with Block-decorated Workgroup variables: they are laid out
  // by their Offset/ArrayStride decorations and all alias the start of workgroup memory.
  bool explicitWorkgroupLayout_ = false;
  bool usesBarrier_ = false;
  // Coroutine kernels (translate_barrier_coroutine.cpp): the frame handle and the blocks every
  // suspend point branches to.
  bool resumable_ = false;
  llvm::Value* coroId_ = nullptr;
  llvm::Value* coroHandle_ = nullptr;
  llvm::BasicBlock* coroSuspend_ = nullptr;
  llvm::BasicBlock* coroCleanup_ = nullptr;
  bool zeroInitShared_ = false;
  const EntryPoint* entry_ = nullptr;
  uint32_t localSize_[3] = {1, 1, 1};
  Stage stage_ = Stage::Compute;
  GraphicsFacts* facts_ = nullptr;
  std::vector<InterfaceLeaf> inputLeaves_, outputLeaves_;  // graphics interface, by private offset

  // Per-function state.
  std::unique_ptr<FunctionState> fn_;
  llvm::Value* mask_ = nullptr;
  llvm::Value* wgState_ = nullptr;
  llvm::Value* batch_ = nullptr;
  llvm::Value* resources_ = nullptr;
  llvm::Value* privateBase_ = nullptr;
  llvm::Value* env_ = nullptr;  // callee functions: pointer to the caller's environment
  std::string error_;

  friend class MemoryTranslation;
};

}  // namespace tessera::jit
