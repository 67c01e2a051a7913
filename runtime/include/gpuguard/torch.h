//===- gpuguard/torch.h - LibTorch checks of instrumented C++ code -*- C++ -*-//
///
/// \file
/// `gpuguard instrument` wraps each operand of a LibTorch op it checks in
///   ::gpuguard::rt::torch::operand(site, index, count, <operand>)
/// which records what the site's check needs from the operand (a tensor
/// handle, an integer, the relevant numbers of a module or options object)
/// and returns the operand unchanged. Once all `count` operands of the site
/// are recorded, in whatever order C++ evaluated them, the check runs, before
/// the op itself: one device, index and class-label ranges, denominators
/// free of zeros, finite floats before an integer cast, loss shapes, and
/// in-place writes to a tensor autograd saved for backward. With
/// --instrument=all, a write no backward() is seen to follow is checked
/// later, when a backward() reaches the node that saved the tensor (the
/// saving op's site captures the tensor and the op's result, whose grad_fn
/// that node is). A failure is reported once per site (see
/// <gpuguard/report.h>) and the op then runs as written, so PyTorch's own
/// error, if any, follows.
///
/// Link gpuguard::runtime_torch. With GPUGUARD_RT_DISABLE defined, operand()
/// returns its operand and nothing else happens.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_TORCH_H
#define GPUGUARD_TORCH_H

#include <gpuguard/rt.h>

#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace gpuguard {
namespace rt {
namespace torch {

/// What a check may need from one operand.
struct Captured {
  bool Present = false;
  at::Tensor Tensor;
  std::optional<int64_t> Integer;
  std::optional<double> Number;
  /// The device of a module's parameters.
  std::optional<c10::Device> Device;
  /// A loss's ignore_index, from its options or module.
  std::optional<int64_t> IgnoreIndex;
};

namespace detail {

/// Records \p Value as operand \p Index of \p Count at \p Site, running the
/// site's check when it completes the set.
void capture(const SiteInfo &Site, unsigned Index, unsigned Count,
             Captured Value);

std::optional<c10::Device> parameterDevice(const ::torch::nn::Module &Module);

/// Module holders (`torch::nn::Linear`, TORCH_MODULE types) name the
/// module they hold.
template <class T, class = void> struct HasContainedType : std::false_type {};
template <class T>
struct HasContainedType<T, std::void_t<typename T::ContainedType>>
    : std::true_type {};

template <class T> Captured captureOf(const T &Value) {
  using Type = std::decay_t<T>;
  Captured Result;
  Result.Present = true;
  if constexpr (std::is_same_v<Type, at::Tensor>) {
    Result.Tensor = Value;
  } else if constexpr (std::is_same_v<Type, bool>) {
  } else if constexpr (std::is_integral_v<Type> || std::is_enum_v<Type>) {
    Result.Integer = static_cast<int64_t>(Value);
    Result.Number = static_cast<double>(Value);
  } else if constexpr (std::is_floating_point_v<Type>) {
    Result.Number = static_cast<double>(Value);
  } else if constexpr (std::is_same_v<Type, c10::Scalar>) {
    if (Value.isIntegral(/*includeBool=*/false))
      Result.Integer = Value.toLong();
    if (!Value.isComplex())
      Result.Number = Value.toDouble();
  } else if constexpr (
      std::is_same_v<Type, ::torch::nn::functional::CrossEntropyFuncOptions> ||
      std::is_same_v<Type, ::torch::nn::functional::NLLLossFuncOptions>) {
    Result.IgnoreIndex = Value.ignore_index();
  } else if constexpr (std::is_same_v<Type, ::torch::nn::Embedding> ||
                       std::is_same_v<Type, ::torch::nn::EmbeddingImpl>) {
    const auto &Impl = [&]() -> const ::torch::nn::EmbeddingImpl & {
      if constexpr (std::is_same_v<Type, ::torch::nn::Embedding>)
        return *Value;
      else
        return Value;
    }();
    Result.Tensor = Impl.weight;
    if (Impl.weight.defined())
      Result.Device = Impl.weight.device();
  } else if constexpr (std::is_same_v<Type, ::torch::nn::CrossEntropyLoss> ||
                       std::is_same_v<Type, ::torch::nn::NLLLoss>) {
    Result.IgnoreIndex = Value->options.ignore_index();
  } else if constexpr (std::is_base_of_v<::torch::nn::Module, Type>) {
    Result.Device = parameterDevice(Value);
  } else if constexpr (HasContainedType<Type>::value) {
    if (!Value.is_empty())
      Result.Device = parameterDevice(*Value);
  } else {
    Result.Present = false;
  }
  return Result;
}

template <class T> Captured captureAny(const T &Value) {
  using Type = std::decay_t<T>;
  if constexpr (std::is_same_v<Type, at::Tensor> ||
                std::is_arithmetic_v<Type> || std::is_enum_v<Type> ||
                std::is_same_v<Type, c10::Scalar> ||
                std::is_base_of_v<::torch::nn::Module, Type> ||
                std::is_same_v<
                    Type, ::torch::nn::functional::CrossEntropyFuncOptions> ||
                std::is_same_v<Type,
                               ::torch::nn::functional::NLLLossFuncOptions> ||
                HasContainedType<Type>::value) {
    return captureOf(Value);
  } else if constexpr (std::is_pointer_v<Type>) {
    // `(*model)(x)` and `model->forward(x)` on a raw or smart pointer.
    if (Value)
      return captureAny(*Value);
    return Captured();
  } else {
    return Captured(); // Counted, never checked.
  }
}

template <class T> Captured captureAny(const std::shared_ptr<T> &Value) {
  if (Value)
    return captureAny(*Value);
  return Captured();
}

} // namespace detail

/// Records operand \p Index of the \p Count operands of \p Site's op and
/// returns it unchanged; the check runs once all are recorded.
template <class T>
T &&operand(const SiteInfo &Site, unsigned Index, unsigned Count, T &&Value) {
#ifndef GPUGUARD_RT_DISABLE
  detail::capture(Site, Index, Count, detail::captureAny(Value));
#else
  (void)Site;
  (void)Index;
  (void)Count;
#endif
  return std::forward<T>(Value);
}

} // namespace torch
} // namespace rt
} // namespace gpuguard

#endif // GPUGUARD_TORCH_H
