//===--- DeviceInference.h - Which device a tensor lives on -----*- C++ -*-===//
///
/// \file
/// Infers, flow-sensitively, the device of the tensors, torch::Device and
/// TensorOptions values and modules of one function. A device is known only
/// when the code fixes it on every path: a factory with (or without) device
/// options, `.to(...)`, `.cuda()`, `.cpu()`, the result of an op on its
/// operands, a module constructed on the CPU or moved with `->to(device)`.
/// Runtime choices (`torch::cuda::is_available() ? kCUDA : kCPU`), parameters
/// and paths that disagree leave the device unknown, so that a check built
/// on this analysis reports only devices that are certain.
///
/// Tensors also carry whether they may be 0-dim: a 0-dim CPU tensor is
/// accepted by PyTorch beside a CUDA one.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_ANALYSIS_TORCH_DEVICEINFERENCE_H
#define GPUGUARD_ANALYSIS_TORCH_DEVICEINFERENCE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuguard::torch {

struct TensorCall;

enum class DeviceKind { CPU, CUDA, Meta, Other };

/// A device as PyTorch names it: "cpu", "cuda", "cuda:1".
struct Device {
  DeviceKind Kind = DeviceKind::CPU;
  /// -1 when no index is given: for CUDA, the current device.
  int Index = -1;

  std::string str() const;
  bool operator==(const Device &Other) const {
    return Kind == Other.Kind && Index == Other.Index;
  }
  bool operator!=(const Device &Other) const { return !(*this == Other); }
};

/// True when \p A and \p B are certainly different devices: different kinds,
/// or two explicit indexes that differ. "cuda" (the current device) and
/// "cuda:1" may be the same one.
bool provablyDifferent(const Device &A, const Device &B);

/// Parses a device string of torch::Device: "cpu", "cuda", "cuda:1", "meta".
std::optional<Device> parseDeviceString(llvm::StringRef Text);

/// What is known of one tensor, device, options or module value.
struct DeviceInfo {
  /// The device; empty when unknown.
  std::optional<Device> Dev;
  /// Options that name no device: factories then create on the CPU.
  bool NoDevice = false;
  /// A tensor that may have no dimensions (a 0-dim CPU tensor goes with
  /// tensors of any device).
  bool MaybeZeroDim = true;
  /// A module with no parameters (ReLU, a loss): its calls put no device
  /// constraint on their input.
  bool NoParameters = false;
  /// Where the device was decided: the factory, `.to()`, `.cuda()`, the
  /// module's construction or its `->to(device)`.
  clang::SourceLocation Origin;

  bool isKnown() const { return Dev.has_value(); }
  /// A tensor PyTorch lets go with tensors of any device.
  bool isCpuScalar() const {
    return Dev && Dev->Kind == DeviceKind::CPU && MaybeZeroDim;
  }
};

/// The facts at one point: what is known of each local variable. A variable
/// missing from the map is unknown.
using DeviceFacts = llvm::DenseMap<const clang::ValueDecl *, DeviceInfo>;

/// An op that a function of the translation unit runs on every path, with
/// one of its tensor parameters beside a tensor whose device the function
/// itself fixes (`x + torch::arange(x.size(1))`): each call must pass that
/// parameter on the same device, or the op throws.
struct ParameterMeeting {
  /// The function called, and which of its parameters meets the device.
  const clang::FunctionDecl *Function = nullptr;
  unsigned Parameter = 0;
  /// The calls that pass the parameter on, from Function down to the one
  /// whose body holds the op (empty when Function's own does), each with
  /// the function it calls: `embed(x)` calls `addPositions(h)`.
  struct PassedOn {
    const clang::CallExpr *Call = nullptr;
    const clang::FunctionDecl *Callee = nullptr;
  };
  llvm::SmallVector<PassedOn, 2> Through;
  const clang::Expr *Op = nullptr;
  std::string OpName;
  /// The op's operand that follows the parameter's device, and the one on
  /// the fixed device (a tensor with dimensions, or not on the CPU).
  const clang::Expr *ParameterOperand = nullptr;
  const clang::Expr *FixedOperand = nullptr;
  bool ParameterFirst = true;
  DeviceInfo Fixed;
  /// The argument a call passes for the parameter (meetingsOf).
  const clang::Expr *Argument = nullptr;

  /// The function whose body holds the op.
  const clang::FunctionDecl *opFunction() const {
    return Through.empty() ? Function : Through.back().Callee;
  }
};

class DeviceInference {
public:
  /// Builds the CFG of \p Function and runs the analysis to its fixpoint,
  /// from \p Entry: what is known at the entry (assumptions about the
  /// parameters, for a summary of the function).
  DeviceInference(const clang::FunctionDecl &Function,
                  clang::ASTContext &Context,
                  DeviceFacts Entry = DeviceFacts());
  ~DeviceInference();
  DeviceInference(const DeviceInference &) = delete;
  DeviceInference &operator=(const DeviceInference &) = delete;

  /// Calls \p Visit for every statement and sub-expression on a reachable
  /// path, in evaluation order, with the facts just before it.
  void forEachReachable(
      llvm::function_ref<void(const clang::Stmt *, const DeviceFacts &)> Visit)
      const;

  /// The device of a tensor, torch::Device, DeviceType or TensorOptions
  /// expression, or of a module, given \p Facts.
  DeviceInfo deviceOf(const clang::Expr *E, const DeviceFacts &Facts) const;

  /// The facts at the function's exit; empty when no path reaches it.
  std::optional<DeviceFacts> exitFacts() const;

  /// What the function \p Call calls, when it is one of the translation
  /// unit's own, does on every path with its tensor parameters, itself or
  /// through the functions it passes them to (followed three calls deep),
  /// each with the argument the call passes. `model(x)` through a module
  /// holder calls the held module's forward().
  std::vector<ParameterMeeting> meetingsOf(const clang::CallExpr &Call) const;

private:
  class Impl;
  std::unique_ptr<Impl> State;
};

/// The device of the parameters of a module of class \p Module when it is
/// constructed and never moved: the CPU for LibTorch's built-in modules, and
/// for a user's module whose constructors only register built-in modules
/// and parameters created on the CPU; unknown otherwise. NoParameters is set
/// for modules that hold none (ReLU, losses). A user's module whose one
/// constructor does that and then, as its last statement, moves the module
/// to a device it is given (`to(device)`) is unknown too, and
/// \p MovedToParameter, when given, receives that parameter's index: the
/// construction's argument is the device.
DeviceInfo
constructedModuleDevice(const clang::CXXRecordDecl *Module,
                        clang::ASTContext &Context,
                        std::optional<unsigned> *MovedToParameter = nullptr);

/// Ops that take tensors of several devices on purpose: copies between
/// devices, and ops that read only their other operand's shape or type.
bool acceptsOtherDevices(llvm::StringRef OpName);

/// The operands of a tensor op that must share one device: its object, its
/// tensor arguments and the tensors of its list arguments, in order.
llvm::SmallVector<const clang::Expr *, 4>
sameDeviceOperands(const TensorCall &Call);

/// The module behind a call's object: `net` in `net->forward(x)`,
/// `net(x)`, `(*net)(x)`, `net.forward(x)`; null when it is no module.
const clang::Expr *moduleOperand(const clang::Expr *Object);

} // namespace gpuguard::torch

#endif // GPUGUARD_ANALYSIS_TORCH_DEVICEINFERENCE_H
