//===--- TorchChecks.cpp - LibTorch checks of instrumented C++ code -------===//
///
/// \file
/// The checks behind gpuguard::rt::torch::operand(). Each runs on the host
/// before its op, with LibTorch's own rules, and reads tensor data only when
/// the tensor has data: on the CPU, or on a CUDA device, where the values are
/// reduced on the device and the host waits for the result (a
/// synchronisation per checked op: the point of the check is to speak before
/// the op's kernel asserts and the context is lost). Meta tensors have none.
///
//===----------------------------------------------------------------------===//

#include <gpuguard/report.h>
#include <gpuguard/torch.h>

#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/function_hook.h>

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace gpuguard {
namespace rt {
namespace torch {

namespace {

constexpr unsigned MaxOperands = 8;
constexpr int64_t DefaultIgnoreIndex = -100;

/// The operands of one site recorded so far on this thread.
struct Slot {
  std::array<Captured, MaxOperands> Operands;
  unsigned Filled = 0; // bit mask
};

std::string shape(const at::Tensor &T) {
  std::ostringstream OS;
  OS << T.sizes();
  return OS.str();
}

std::string deviceName(const c10::Device &D) { return D.str(); }

/// Whether the tensor's values can be read here (CUDA values through a
/// reduction on their device).
bool hasData(const at::Tensor &T) {
  return T.defined() && (T.device().is_cpu() || T.device().is_cuda()) &&
         T.layout() == c10::kStrided;
}

void checkSameDevice(const SiteInfo &Site,
                     const std::array<Captured, MaxOperands> &Ops,
                     unsigned Count) {
  std::optional<c10::Device> First;
  for (unsigned I = 0; I < Count; ++I) {
    std::optional<c10::Device> Device = Ops[I].Device;
    if (Ops[I].Tensor.defined() && !Device) {
      // A 0-dim CPU tensor goes with tensors of any device.
      if (Ops[I].Tensor.dim() == 0 && Ops[I].Tensor.device().is_cpu())
        continue;
      Device = Ops[I].Tensor.device();
    }
    if (!Device)
      continue;
    if (!First) {
      First = Device;
      continue;
    }
    if (*Device != *First) {
      reportHost(Site, "tensors on different devices in one op",
                 deviceName(*First) + " and " + deviceName(*Device) + " in '" +
                     Site.What + "'");
      return;
    }
  }
}

/// The first value of \p Index outside [0, Bound) other than \p Ignored.
std::optional<int64_t> firstOutOfRange(const at::Tensor &Index, int64_t Bound,
                                       std::optional<int64_t> Ignored) {
  if (!hasData(Index) || Index.numel() == 0 ||
      !at::isIntegralType(Index.scalar_type(), /*includeBool=*/false))
    return std::nullopt;
  at::NoGradGuard NoGrad;
  at::Tensor Values = Index.to(at::kLong);
  auto [Low, High] = at::aminmax(Values);
  if (Low.item<int64_t>() >= 0 && High.item<int64_t>() < Bound)
    return std::nullopt;
  at::Tensor Bad = (Values < 0).logical_or(Values >= Bound);
  if (Ignored)
    Bad = Bad.logical_and(Values != *Ignored);
  at::Tensor Found = Values.masked_select(Bad);
  if (Found.numel() == 0)
    return std::nullopt;
  return Found[0].item<int64_t>();
}

void checkEmbedding(const SiteInfo &Site, const Captured &Weight,
                    const Captured &Ids) {
  if (!Weight.Tensor.defined() || Weight.Tensor.dim() != 2)
    return;
  int64_t Rows = Weight.Tensor.size(0);
  if (auto Value = firstOutOfRange(Ids.Tensor, Rows, std::nullopt))
    reportHost(Site, "embedding index out of range",
               "index " + std::to_string(*Value) + ", num_embeddings " +
                   std::to_string(Rows));
}

void checkClassTargets(const SiteInfo &Site, const Captured &Input,
                       const Captured &Target, const Captured *Options) {
  const at::Tensor &In = Input.Tensor;
  const at::Tensor &Tg = Target.Tensor;
  if (!In.defined() || !Tg.defined() || In.dim() == 0)
    return;
  // Floating targets are class probabilities, not indexes.
  if (at::isFloatingType(Tg.scalar_type()))
    return;
  int64_t Classes = In.dim() == 1 ? In.size(0) : In.size(1);
  int64_t Ignored = DefaultIgnoreIndex;
  if (Options && Options->IgnoreIndex)
    Ignored = *Options->IgnoreIndex;
  else if (Options && Options->Integer)
    Ignored = *Options->Integer;
  if (auto Value = firstOutOfRange(Tg, Classes, Ignored))
    reportHost(Site, "class target out of range",
               "target " + std::to_string(*Value) + ", classes " +
                   std::to_string(Classes) + ", ignore_index " +
                   std::to_string(Ignored) + " in '" + Site.What + "'");
}

void checkIndexedDim(const SiteInfo &Site, const Captured &Self,
                     const Captured &Dim, const Captured &Index) {
  if (!Self.Tensor.defined() || !Dim.Integer || !Index.Tensor.defined())
    return;
  int64_t Rank = std::max<int64_t>(Self.Tensor.dim(), 1);
  int64_t D = *Dim.Integer < 0 ? *Dim.Integer + Rank : *Dim.Integer;
  if (D < 0 || D >= Rank)
    return;
  int64_t Size = Self.Tensor.dim() == 0 ? 1 : Self.Tensor.size(D);
  if (auto Value = firstOutOfRange(Index.Tensor, Size, std::nullopt))
    reportHost(Site, "index out of range",
               "index " + std::to_string(*Value) + ", size " +
                   std::to_string(Size) + " of dimension " +
                   std::to_string(*Dim.Integer) + " in '" + Site.What + "'");
}

void checkOneHot(const SiteInfo &Site, const Captured &Index,
                 const Captured *Classes) {
  // num_classes = -1 (the default) takes the largest value plus one, so
  // only negative values are out of range.
  int64_t Bound = Classes && Classes->Integer && *Classes->Integer >= 0
                      ? *Classes->Integer
                      : std::numeric_limits<int64_t>::max();
  if (auto Value = firstOutOfRange(Index.Tensor, Bound, std::nullopt))
    reportHost(Site, "one_hot value out of range",
               "value " + std::to_string(*Value) +
                   (Bound == std::numeric_limits<int64_t>::max()
                        ? std::string(", values must not be negative")
                        : ", num_classes " + std::to_string(Bound)));
}

void checkNonZero(const SiteInfo &Site, const Captured &Denominator) {
  if (Denominator.Tensor.defined()) {
    const at::Tensor &T = Denominator.Tensor;
    if (!hasData(T) || T.numel() == 0 || T.is_complex())
      return;
    at::NoGradGuard NoGrad;
    int64_t Zeros = (T == 0).sum().item<int64_t>();
    // A NaN denominator (the unbiased std of one value) spoils the quotient
    // as surely as a zero.
    int64_t NaNs = at::isFloatingType(T.scalar_type())
                       ? T.isnan().sum().item<int64_t>()
                       : 0;
    std::string Of = " of " + std::to_string(T.numel()) + " elements of '" +
                     Site.What + "' are ";
    if (Zeros && NaNs)
      reportHost(Site, "division by a denominator with zero and NaN elements",
                 std::to_string(Zeros) + Of + "0 and " + std::to_string(NaNs) +
                     " are NaN");
    else if (Zeros)
      reportHost(Site, "division by a denominator with zero elements",
                 std::to_string(Zeros) + Of + "0");
    else if (NaNs)
      reportHost(Site, "division by a denominator with NaN elements",
                 std::to_string(NaNs) + Of + "NaN");
    return;
  }
  if (Denominator.Number && *Denominator.Number == 0)
    reportHost(Site, "division by zero",
               "'" + std::string(Site.What) + "' is 0");
  else if (Denominator.Number && std::isnan(*Denominator.Number))
    reportHost(Site, "division by NaN",
               "'" + std::string(Site.What) + "' is NaN");
}

void checkFinite(const SiteInfo &Site, const Captured &Value) {
  const at::Tensor &T = Value.Tensor;
  if (!hasData(T) || !at::isFloatingType(T.scalar_type()) || T.numel() == 0)
    return;
  at::NoGradGuard NoGrad;
  int64_t Bad = T.isfinite().logical_not().sum().item<int64_t>();
  if (Bad)
    reportHost(Site, "NaN or infinity cast to an integer type",
               std::to_string(Bad) + " of " + std::to_string(T.numel()) +
                   " elements of '" + Site.What + "' are not finite");
}

void checkLossShape(const SiteInfo &Site, const Captured &Input,
                    const Captured &Target) {
  const at::Tensor &In = Input.Tensor;
  const at::Tensor &Tg = Target.Tensor;
  if (!In.defined() || !Tg.defined())
    return;
  std::string Loss = Site.What;
  if (Loss == "nll_loss" || Loss == "cross_entropy") {
    // Class probabilities (cross_entropy only): the input's shape.
    if (Loss == "cross_entropy" && at::isFloatingType(Tg.scalar_type())) {
      if (In.sizes() != Tg.sizes())
        reportHost(Site, "loss target shape does not fit the input",
                   "input " + shape(In) + ", class-probability target " +
                       shape(Tg) + " in '" + Loss + "'");
      return;
    }
    if (In.dim() == 0)
      return;
    std::vector<int64_t> Expected(In.sizes().begin(), In.sizes().end());
    Expected.erase(Expected.begin() + (In.dim() == 1 ? 0 : 1));
    if (Tg.sizes() != c10::IntArrayRef(Expected)) {
      std::ostringstream Want;
      Want << c10::IntArrayRef(Expected);
      reportHost(Site, "loss target shape does not fit the input",
                 "input " + shape(In) + ", target " + shape(Tg) +
                     ", class indices need " + Want.str() + " in '" + Loss +
                     "'");
    }
    return;
  }
  // Elementwise losses: PyTorch broadcasts regression losses with only a
  // warning, and rejects other shapes; either way the shapes must agree.
  if (In.sizes() != Tg.sizes())
    reportHost(Site, "loss input and target shapes differ",
               "input " + shape(In) + ", target " + shape(Tg) + " in '" + Loss +
                   "'");
}

/// How a report of an in-place write names the op that saved the tensor.
std::string savedBy(const SiteInfo &Saving) {
  return "saved by '" + std::string(Saving.What) + "'";
}

/// Tensors an op saved for backward, with the version it saved.
struct SavedRecord {
  c10::weak_intrusive_ptr<c10::TensorImpl> Impl;
  const c10::StorageImpl *Storage;
  int64_t Version;
  const SiteInfo *Site;
};

std::mutex SavedMutex;
std::vector<SavedRecord> Saved;

void recordSaved(const SiteInfo &Site, const Captured &Value) {
  const at::Tensor &T = Value.Tensor;
  // An op saves its operands for the gradients of the others too: `w * x`
  // saves x, which need not require grad itself.
  if (!T.defined() || !at::GradMode::is_enabled() || !T.has_storage())
    return;
  std::lock_guard<std::mutex> Lock(SavedMutex);
  // Forget tensors that are gone, and older saves of this one.
  const c10::TensorImpl *Impl = T.unsafeGetTensorImpl();
  Saved.erase(std::remove_if(Saved.begin(), Saved.end(),
                             [&](const SavedRecord &R) {
                               return R.Impl.expired() ||
                                      (R.Impl._unsafe_get_target() == Impl &&
                                       R.Site == &Site);
                             }),
              Saved.end());
  Saved.push_back(
      {c10::weak_intrusive_ptr<c10::TensorImpl>(T.getIntrusivePtr()),
       T.storage().unsafeGetStorageImpl(), T._version(), &Site});
}

void checkInplaceWrite(const SiteInfo &Site, const Captured &Value) {
  const at::Tensor &T = Value.Tensor;
  if (!T.defined())
    return;
  // Autograd refuses in-place writes to a leaf that requires grad, or to a
  // view of one, unless grad mode is off.
  const at::TensorBase &Leaf = T.is_view() ? T._base() : T;
  if (at::GradMode::is_enabled() && Leaf.defined() && Leaf.is_leaf() &&
      Leaf.requires_grad()) {
    reportHost(Site,
               T.is_view()
                   ? "in-place write to a view of a leaf tensor that requires "
                     "grad"
                   : "in-place write to a leaf tensor that requires grad",
               "'" + std::string(Site.What) + "' outside a no-grad scope");
    return;
  }
  // A saved tensor's version changes even with grad mode off, and backward()
  // then fails all the same.
  if (!T.has_storage())
    return;
  // Views share their base's storage and version counter.
  const c10::StorageImpl *Storage = T.storage().unsafeGetStorageImpl();
  const SiteInfo *SavedAt = nullptr;
  int64_t Version = 0;
  {
    std::lock_guard<std::mutex> Lock(SavedMutex);
    for (const SavedRecord &R : Saved) {
      if (R.Storage != Storage)
        continue;
      c10::intrusive_ptr<c10::TensorImpl> Live = R.Impl.lock();
      if (Live && static_cast<int64_t>(
                      Live->version_counter().current_version()) == R.Version) {
        SavedAt = R.Site;
        Version = R.Version;
        break;
      }
    }
  }
  if (SavedAt)
    reportHost(Site, "in-place write to a tensor saved for backward",
               "'" + std::string(Site.What) + "' changes version " +
                   std::to_string(Version) + "; backward() will fail",
               *SavedAt, savedBy(*SavedAt).c_str());
}

/// A tensor that an autograd node saved for backward, as the node's pre-hook
/// checks it: the sites of --instrument=all, where no backward() is seen.
struct NodeSave {
  /// What the node holds is a copy of a saved result, not the result's
  /// TensorImpl: the storage and version counter they share identify it.
  c10::weak_intrusive_ptr<c10::StorageImpl> Storage;
  c10::VariableVersion Counter;
  int64_t Version;
  const SiteInfo *Site;
  /// The first instrumented in-place write that changed it.
  const SiteInfo *Writer = nullptr;
};

/// The saves of one node, owned by its pre-hook and so gone with the node.
struct NodeSaves {
  std::vector<NodeSave> Saves;
};

std::mutex NodeMutex;
/// Nodes with a pre-hook, by address; an expired entry's node is gone.
std::unordered_map<const ::torch::autograd::Node *, std::weak_ptr<NodeSaves>>
    HookedNodes;
size_t PruneHookedNodesAt = 64;

/// Runs when backward() reaches a hooked node, before the node unpacks what
/// it saved: a saved tensor whose version changed since is what PyTorch is
/// about to reject.
void checkNodeSaves(const NodeSaves &Node) {
  std::vector<NodeSave> Changed;
  {
    std::lock_guard<std::mutex> Lock(NodeMutex);
    for (const NodeSave &S : Node.Saves)
      if (S.Writer &&
          static_cast<int64_t>(S.Counter.current_version()) != S.Version)
        Changed.push_back(S);
  }
  // Reported outside the lock: halt_on_error may end the program.
  for (const NodeSave &S : Changed)
    reportHost(*S.Writer, "in-place write to a tensor saved for backward",
               "'" + std::string(S.Writer->What) +
                   "' changed it from version " + std::to_string(S.Version) +
                   " and backward() reached the node that saved it",
               *S.Site, savedBy(*S.Site).c_str());
}

class SavedVersionHook : public ::torch::autograd::FunctionPreHook {
public:
  explicit SavedVersionHook(std::shared_ptr<NodeSaves> Saves)
      : Saves(std::move(Saves)) {}
  ::torch::autograd::variable_list
  operator()(const ::torch::autograd::variable_list &Grads) override {
    checkNodeSaves(*Saves);
    return Grads;
  }

private:
  std::shared_ptr<NodeSaves> Saves;
};

/// At a saving op of --instrument=all: \p Saved as \p Result's grad_fn saved
/// it.
void recordNodeSave(const SiteInfo &Site, const at::Tensor &Saved,
                    const at::Tensor &Result) {
  if (!Saved.defined() || !Saved.has_storage() || !Result.defined() ||
      !Result.requires_grad())
    return;
  const std::shared_ptr<::torch::autograd::Node> &Node = Result.grad_fn();
  if (!Node)
    return;
  // An op saves an input only when a gradient that needs it is computed
  // (`a * c` keeps no `a` when `c` does not require grad): with every
  // input's gradient computed, all it may save is saved.
  for (const ::torch::autograd::Edge &Edge : Node->next_edges())
    if (!Edge.is_valid())
      return;
  std::shared_ptr<NodeSaves> Saves;
  bool NewHook = false;
  {
    std::lock_guard<std::mutex> Lock(NodeMutex);
    if (HookedNodes.size() >= PruneHookedNodesAt) {
      for (auto It = HookedNodes.begin(); It != HookedNodes.end();)
        It = It->second.expired() ? HookedNodes.erase(It) : std::next(It);
      PruneHookedNodesAt = std::max<size_t>(64, 2 * HookedNodes.size());
    }
    std::weak_ptr<NodeSaves> &Entry = HookedNodes[Node.get()];
    Saves = Entry.lock();
    if (!Saves) {
      Saves = std::make_shared<NodeSaves>();
      Entry = Saves;
      NewHook = true;
    }
    const c10::StorageImpl *Storage = Saved.storage().unsafeGetStorageImpl();
    for (const NodeSave &S : Saves->Saves)
      if (S.Storage._unsafe_get_target() == Storage && S.Site == &Site)
        return;
    Saves->Saves.push_back({Saved.storage().getWeakStorageImpl(),
                            Saved.unsafeGetTensorImpl()->version_counter(),
                            Saved._version(), &Site});
  }
  if (NewHook)
    Node->add_pre_hook(std::make_unique<SavedVersionHook>(Saves));
}

/// At an in-place write of --instrument=all, before it runs: names it as
/// the writer of the saved tensors it is about to change.
void recordDeferredWrite(const SiteInfo &Site, const Captured &Value) {
  const at::Tensor &T = Value.Tensor;
  if (!T.defined() || !T.has_storage())
    return;
  // Views share their base's storage and version counter.
  const c10::StorageImpl *Storage = T.storage().unsafeGetStorageImpl();
  std::lock_guard<std::mutex> Lock(NodeMutex);
  for (const auto &Entry : HookedNodes) {
    std::shared_ptr<NodeSaves> Saves = Entry.second.lock();
    if (!Saves)
      continue;
    for (NodeSave &S : Saves->Saves) {
      if (!S.Writer && !S.Storage.expired() &&
          S.Storage._unsafe_get_target() == Storage &&
          static_cast<int64_t>(S.Counter.current_version()) == S.Version)
        S.Writer = &Site;
    }
  }
}

/// "[3, 4]".
std::string listOf(c10::IntArrayRef Values) {
  std::string Text = "[";
  for (size_t I = 0; I < Values.size(); ++I)
    Text += (I ? ", " : "") + std::to_string(Values[I]);
  return Text + "]";
}

/// The CUDA device current on this thread, when LibTorch was built with
/// CUDA (its device guard is registered) and one is set.
std::optional<c10::Device> currentCudaDevice() {
  if (!c10::impl::hasDeviceGuardImpl(c10::DeviceType::CUDA))
    return std::nullopt;
  return c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)->getDevice();
}

/// A tensor whose memory a kernel is about to receive: its memory must be
/// the current GPU's, and a raw pointer (\p Flat) is indexed as if the
/// tensor were contiguous. Every problem is named in one line.
void checkKernelInput(const SiteInfo &Site, const Captured &Value, bool Flat) {
  const at::Tensor &T = Value.Tensor;
  if (!T.defined())
    return;
  std::vector<std::string> Problems;
  if (!T.is_cuda()) {
    Problems.push_back("on " + deviceName(T.device()) + ", not a GPU");
  } else if (std::optional<c10::Device> Current = currentCudaDevice();
             Current && Current->index() != T.device().index()) {
    Problems.push_back("on " + deviceName(T.device()) +
                       " while the current device is " + deviceName(*Current));
  }
  if (Flat && !T.is_contiguous())
    Problems.push_back("not contiguous: sizes " + listOf(T.sizes()) +
                       ", strides " + listOf(T.strides()));
  if (Problems.empty())
    return;
  std::string Values = "'" + std::string(Site.What) + "' ";
  for (size_t I = 0; I < Problems.size(); ++I)
    Values += (I ? "; " : "") + Problems[I];
  reportHost(Site,
             Flat ? "tensor passed to a kernel as a raw pointer is not a "
                    "contiguous tensor on the current GPU"
                  : "tensor passed to a kernel is not on the current GPU",
             Values);
}

void runCheck(const SiteInfo &Site,
              const std::array<Captured, MaxOperands> &Ops, unsigned Count) {
  switch (Site.Kind) {
  case TorchSameDevice:
    checkSameDevice(Site, Ops, Count);
    break;
  case TorchKernelInput:
  case TorchKernelInputFlat:
    checkKernelInput(Site, Ops[0], Site.Kind == TorchKernelInputFlat);
    break;
  case TorchEmbeddingRange:
    if (Count >= 2)
      checkEmbedding(Site, Ops[0], Ops[1]);
    break;
  case TorchClassTargetRange:
    if (Count >= 2)
      checkClassTargets(Site, Ops[0], Ops[1], Count >= 3 ? &Ops[2] : nullptr);
    break;
  case TorchIndexSelectRange:
  case TorchGatherRange:
    if (Count >= 3)
      checkIndexedDim(Site, Ops[0], Ops[1], Ops[2]);
    break;
  case TorchNonZero:
    checkNonZero(Site, Ops[0]);
    break;
  case TorchFiniteBeforeCast:
    checkFinite(Site, Ops[0]);
    break;
  case TorchLossShape:
    if (Count >= 2)
      checkLossShape(Site, Ops[0], Ops[1]);
    break;
  case TorchSavedForBackward:
    recordSaved(Site, Ops[0]);
    break;
  case TorchInplaceWrite:
    checkInplaceWrite(Site, Ops[0]);
    break;
  case TorchSavedForBackwardNode:
    recordNodeSave(Site, Ops[0].Tensor, Ops[Count >= 2 ? 1 : 0].Tensor);
    break;
  case TorchInplaceWriteDeferred:
    recordDeferredWrite(Site, Ops[0]);
    break;
  case TorchOneHotRange:
    checkOneHot(Site, Ops[0], Count >= 2 ? &Ops[1] : nullptr);
    break;
  default:
    break;
  }
}

} // namespace

namespace detail {

std::optional<c10::Device> parameterDevice(const ::torch::nn::Module &Module) {
  for (const at::Tensor &Parameter : Module.parameters())
    if (Parameter.defined())
      return Parameter.device();
  for (const at::Tensor &Buffer : Module.buffers())
    if (Buffer.defined())
      return Buffer.device();
  return std::nullopt;
}

void capture(const SiteInfo &Site, unsigned Index, unsigned Count,
             Captured Value) {
  if (Count == 0 || Count > MaxOperands || Index >= Count)
    return;
  if (Count == 1) {
    std::array<Captured, MaxOperands> One;
    One[0] = std::move(Value);
    runCheck(Site, One, 1);
    return;
  }
  thread_local std::unordered_map<const SiteInfo *, Slot> Slots;
  Slot &S = Slots[&Site];
  // An operand seen twice means the last evaluation was cut short (an
  // exception): start over.
  if (S.Filled & (1u << Index))
    S = Slot();
  S.Operands[Index] = std::move(Value);
  S.Filled |= 1u << Index;
  if (S.Filled != (1u << Count) - 1)
    return;
  std::array<Captured, MaxOperands> Operands = std::move(S.Operands);
  S = Slot();
  runCheck(Site, Operands, Count);
}

} // namespace detail

} // namespace torch
} // namespace rt
} // namespace gpuguard
