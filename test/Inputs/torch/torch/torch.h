// A small stand-in for LibTorch's <torch/torch.h>, for the torch module's unit
// tests. It declares what the tests use with the namespaces, class names and
// signatures of LibTorch 1.13 (c10::Device, at::Tensor, torch::nn::...), so
// that the checks see the same AST shapes as with the real headers; nothing
// is defined. Add declarations as tests need them, in the section they belong
// to, keeping the real spelling.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace c10 {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1, Meta = 9 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kMeta = DeviceType::Meta;
using DeviceIndex = int8_t;

struct Device {
  Device(DeviceType type, DeviceIndex index = -1);
  Device(const std::string &device_string);
  DeviceType type() const noexcept;
  DeviceIndex index() const noexcept;
  bool is_cuda() const noexcept;
  bool is_cpu() const noexcept;
};

enum class ScalarType : int8_t {
  Byte,
  Char,
  Short,
  Int,
  Long,
  Half,
  Float,
  Double,
  Bool
};
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kInt64 = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;

enum class MemoryFormat : int8_t { Contiguous, Preserve };

struct nullopt_t {
  constexpr explicit nullopt_t(int) {}
};
constexpr nullopt_t nullopt{0};

template <class T> class optional {
public:
  optional(nullopt_t) noexcept;
  optional() noexcept;
  optional(const T &value);
  optional(T &&value);
  template <class U, class = std::enable_if_t<
                         std::is_constructible<T, U &&>::value &&
                         !std::is_same<std::decay_t<U>, optional>::value &&
                         !std::is_same<std::decay_t<U>, nullopt_t>::value &&
                         !std::is_same<std::decay_t<U>, T>::value>>
  optional(U &&value);
  bool has_value() const;
  const T &value() const;
};

class Scalar {
public:
  Scalar(int value);
  Scalar(long value);
  Scalar(long long value);
  Scalar(float value);
  Scalar(double value);
  Scalar(bool value);
};

template <class T> class ArrayRef {
public:
  ArrayRef();
  ArrayRef(const T &element);
  ArrayRef(const std::initializer_list<T> &elements);
  ArrayRef(const std::vector<T> &elements);
  std::size_t size() const;
  const T &operator[](std::size_t index) const;
};
using IntArrayRef = ArrayRef<int64_t>;

struct TensorOptions {
  TensorOptions();
  TensorOptions(DeviceType device_type);
  TensorOptions(Device device);
  TensorOptions(ScalarType dtype);
  TensorOptions device(optional<Device> device) const noexcept;
  template <typename... Args>
  TensorOptions device(Args &&...args) const noexcept;
  TensorOptions dtype(optional<ScalarType> dtype) const noexcept;
  TensorOptions requires_grad(optional<bool> requires_grad) const noexcept;
  Device device() const noexcept;
};
inline TensorOptions device(Device device);
inline TensorOptions dtype(ScalarType dtype);
inline TensorOptions requires_grad(bool requires_grad = true);

struct AutoGradMode {
  AutoGradMode(bool enabled);
  ~AutoGradMode();
};
struct NoGradGuard : public AutoGradMode {
  NoGradGuard();
};

namespace detail {
[[noreturn]] void torchCheckFail(const char *func, const char *file,
                                 uint32_t line, const char *msg);
} // namespace detail

} // namespace c10

// c10/util/Exception.h
#define TORCH_CHECK(cond, ...)                                                 \
  if (__builtin_expect(static_cast<bool>(!(cond)), 0)) {                       \
    ::c10::detail::torchCheckFail(__func__, __FILE__,                          \
                                  static_cast<uint32_t>(__LINE__), #cond);     \
  }

namespace at {

using c10::ArrayRef;
using c10::AutoGradMode;
using c10::Device;
using c10::device;
using c10::DeviceType;
using c10::dtype;
using c10::IntArrayRef;
using c10::kBool;
using c10::kByte;
using c10::kCPU;
using c10::kCUDA;
using c10::kDouble;
using c10::kFloat;
using c10::kFloat32;
using c10::kHalf;
using c10::kInt;
using c10::kInt64;
using c10::kLong;
using c10::kMeta;
using c10::MemoryFormat;
using c10::NoGradGuard;
using c10::optional;
using c10::requires_grad;
using c10::Scalar;
using c10::ScalarType;
using c10::TensorOptions;

class Tensor;
using TensorList = ArrayRef<Tensor>;
using ITensorListRef = ArrayRef<Tensor>;

template <typename T, std::size_t N> struct PackedTensorAccessor32 {
  T *data() const;
};

class TensorBase {
public:
  int64_t dim() const;
  int64_t numel() const;
  IntArrayRef sizes() const;
  int64_t size(int64_t dim) const;
  Device device() const;
  TensorOptions options() const;
  ScalarType scalar_type() const;
  bool is_cuda() const;
  bool is_contiguous() const;
  int64_t stride(int64_t dim) const;
  IntArrayRef strides() const;
  bool requires_grad() const;
  bool defined() const;
  const TensorBase &set_requires_grad(bool requires_grad);
  int64_t _version() const;
  void *data_ptr() const;
  template <typename T> T *data_ptr() const;
  template <typename T> T *data() const;
  template <typename T, std::size_t N>
  PackedTensorAccessor32<T, N> packed_accessor32() const;
  // Deprecated since 1.8, still in use (the extension tutorial's lltm).
  template <typename T, std::size_t N>
  PackedTensorAccessor32<T, N> packed_accessor() const;
  template <typename T> T item() const;
};

class Tensor : public TensorBase {
public:
  Tensor();
  Tensor(const Tensor &other);
  Tensor(Tensor &&other);
  Tensor &operator=(const Tensor &other) &;
  Tensor &operator=(Tensor &&other) &;
  Tensor &operator=(const Scalar &value) &&;
  Tensor operator[](int64_t index) const;
  Tensor operator[](const Tensor &index) const;
  Tensor operator-() const;

  Tensor &operator+=(const Tensor &other);
  Tensor &operator+=(const Scalar &other);
  Tensor &operator-=(const Tensor &other);
  Tensor &operator-=(const Scalar &other);
  Tensor &operator*=(const Tensor &other);
  Tensor &operator*=(const Scalar &other);
  Tensor &operator/=(const Tensor &other);
  Tensor &operator/=(const Scalar &other);

  // Devices and types.
  Tensor to(TensorOptions options, bool non_blocking = false, bool copy = false,
            optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false,
            bool copy = false,
            optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false,
            optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor to(const Tensor &other, bool non_blocking = false, bool copy = false,
            optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor cuda() const;
  Tensor cpu() const;
  Tensor toType(ScalarType type) const;
  Tensor type_as(const Tensor &other) const;
  Tensor contiguous() const;
  Tensor clone(optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor detach() const;
  Tensor &detach_() const;
  Tensor &requires_grad_(bool requires_grad = true) const;
  Tensor grad() const;
  void backward(const Tensor &gradient = {},
                optional<bool> retain_graph = c10::nullopt,
                bool create_graph = false) const;

  // Shapes and views.
  Tensor view(IntArrayRef size) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor t() const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor expand(IntArrayRef size, bool implicit = false) const;
  Tensor expand_as(const Tensor &other) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor slice(int64_t dim = 0, optional<int64_t> start = c10::nullopt,
               optional<int64_t> end = c10::nullopt, int64_t step = 1) const;

  // Arithmetic.
  Tensor add(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor add(const Scalar &other, const Scalar &alpha = 1) const;
  Tensor &add_(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor &add_(const Scalar &other, const Scalar &alpha = 1) const;
  Tensor sub(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor &sub_(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor &sub_(const Scalar &other, const Scalar &alpha = 1) const;
  Tensor mul(const Tensor &other) const;
  Tensor mul(const Scalar &other) const;
  Tensor &mul_(const Tensor &other) const;
  Tensor &mul_(const Scalar &other) const;
  Tensor div(const Tensor &other) const;
  Tensor div(const Scalar &other) const;
  Tensor &div_(const Tensor &other) const;
  Tensor &div_(const Scalar &other) const;
  Tensor true_divide(const Tensor &other) const;
  Tensor &true_divide_(const Tensor &other) const;
  Tensor floor_divide(const Tensor &other) const;
  Tensor pow(const Scalar &exponent) const;
  Tensor pow(const Tensor &exponent) const;
  Tensor abs() const;
  Tensor &abs_() const;
  Tensor square() const;
  Tensor neg() const;
  Tensor sqrt() const;
  Tensor exp() const;
  Tensor &exp_() const;
  Tensor log() const;
  Tensor &log_() const;
  Tensor relu() const;
  Tensor &relu_() const;
  Tensor sigmoid() const;
  Tensor &sigmoid_() const;
  Tensor tanh() const;
  Tensor &tanh_() const;
  Tensor floor() const;
  Tensor ceil() const;
  Tensor remainder(const Scalar &other) const;
  Tensor round() const;
  Tensor matmul(const Tensor &other) const;
  Tensor mm(const Tensor &mat2) const;
  Tensor clamp(const optional<Scalar> &min = c10::nullopt,
               const optional<Scalar> &max = c10::nullopt) const;
  Tensor &clamp_(const optional<Scalar> &min = c10::nullopt,
                 const optional<Scalar> &max = c10::nullopt) const;
  Tensor clamp_min(const Scalar &min) const;
  Tensor &clamp_min_(const Scalar &min) const;
  Tensor clamp_max(const Scalar &max) const;
  Tensor &clamp_max_(const Scalar &max) const;
  Tensor nan_to_num(optional<double> nan = c10::nullopt,
                    optional<double> posinf = c10::nullopt,
                    optional<double> neginf = c10::nullopt) const;
  Tensor masked_fill(const Tensor &mask, const Scalar &value) const;
  Tensor &masked_fill_(const Tensor &mask, const Scalar &value) const;
  Tensor &copy_(const Tensor &src, bool non_blocking = false) const;
  Tensor &zero_() const;
  Tensor &fill_(const Scalar &value) const;
  Tensor &index_put_(ArrayRef<Tensor> indices, const Tensor &values,
                     bool accumulate = false) const;
  Tensor &index_add_(int64_t dim, const Tensor &index, const Tensor &source,
                     const Scalar &alpha = 1) const;
  Tensor &scatter_add_(int64_t dim, const Tensor &index,
                       const Tensor &src) const;
  Tensor &uniform_(double from = 0, double to = 1) const;
  Tensor &normal_(double mean = 0, double std = 1) const;

  // Reductions and comparisons.
  Tensor sum() const;
  Tensor sum(IntArrayRef dim, bool keepdim = false) const;
  Tensor mean() const;
  Tensor mean(IntArrayRef dim, bool keepdim = false) const;
  Tensor std() const;
  Tensor std(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor var() const;
  Tensor var(bool unbiased) const;
  Tensor maximum(const Tensor &other) const;
  Tensor norm(const Scalar &p = 2) const;
  Tensor max() const;
  Tensor min() const;
  Tensor argmax(optional<int64_t> dim = c10::nullopt,
                bool keepdim = false) const;
  Tensor softmax(int64_t dim) const;
  Tensor log_softmax(int64_t dim) const;
  Tensor eq(const Scalar &other) const;
  Tensor ne(const Scalar &other) const;
  Tensor gt(const Scalar &other) const;
  Tensor lt(const Scalar &other) const;
  Tensor isfinite() const;
  Tensor isnan() const;
  Tensor all() const;
  Tensor any() const;

  // Indexing.
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Tensor index_select(int64_t dim, const Tensor &index) const;
  Tensor gather(int64_t dim, const Tensor &index,
                bool sparse_grad = false) const;
  Tensor masked_select(const Tensor &mask) const;
};

Tensor operator+(const Tensor &self, const Tensor &other);
Tensor operator+(const Tensor &self, const Scalar &other);
Tensor operator+(const Scalar &self, const Tensor &other);
Tensor operator-(const Tensor &self, const Tensor &other);
Tensor operator-(const Tensor &self, const Scalar &other);
Tensor operator-(const Scalar &self, const Tensor &other);
Tensor operator*(const Tensor &self, const Tensor &other);
Tensor operator*(const Tensor &self, const Scalar &other);
Tensor operator*(const Scalar &self, const Tensor &other);
Tensor operator/(const Tensor &self, const Tensor &other);
Tensor operator/(const Tensor &self, const Scalar &other);
Tensor operator/(const Scalar &self, const Tensor &other);
Tensor operator%(const Tensor &self, const Tensor &other);
Tensor operator%(const Tensor &self, const Scalar &other);
Tensor operator>(const Tensor &self, const Tensor &other);
Tensor operator>(const Tensor &self, const Scalar &other);
Tensor operator<(const Tensor &self, const Tensor &other);
Tensor operator<(const Tensor &self, const Scalar &other);
Tensor operator>=(const Tensor &self, const Scalar &other);
Tensor operator<=(const Tensor &self, const Scalar &other);
Tensor operator==(const Tensor &self, const Scalar &other);
Tensor operator!=(const Tensor &self, const Scalar &other);

// ATen functions (torch::xxx resolves to these through `using namespace at`).
Tensor add(const Tensor &self, const Tensor &other, const Scalar &alpha = 1);
Tensor sub(const Tensor &self, const Tensor &other, const Scalar &alpha = 1);
Tensor mul(const Tensor &self, const Tensor &other);
Tensor div(const Tensor &self, const Tensor &other);
Tensor true_divide(const Tensor &self, const Tensor &other);
Tensor matmul(const Tensor &self, const Tensor &other);
Tensor mm(const Tensor &self, const Tensor &mat2);
Tensor abs(const Tensor &self);
Tensor sqrt(const Tensor &self);
Tensor exp(const Tensor &self);
Tensor log(const Tensor &self);
Tensor relu(const Tensor &self);
Tensor &relu_(Tensor &self);
Tensor sigmoid(const Tensor &self);
Tensor &sigmoid_(Tensor &self);
Tensor tanh(const Tensor &self);
Tensor &tanh_(Tensor &self);
Tensor softmax(const Tensor &self, int64_t dim,
               optional<ScalarType> dtype = c10::nullopt);
Tensor log_softmax(const Tensor &self, int64_t dim,
                   optional<ScalarType> dtype = c10::nullopt);
Tensor clamp(const Tensor &self, const optional<Scalar> &min,
             const optional<Scalar> &max = c10::nullopt);
Tensor clamp_min(const Tensor &self, const Scalar &min);
Tensor where(const Tensor &condition, const Tensor &self, const Tensor &other);
Tensor maximum(const Tensor &self, const Tensor &other);
Tensor max(const Tensor &self, const Tensor &other);
Tensor where(const Tensor &condition, const Tensor &self, const Scalar &other);
Tensor cat(const ITensorListRef &tensors, int64_t dim = 0);
Tensor stack(TensorList tensors, int64_t dim = 0);
Tensor index_select(const Tensor &self, int64_t dim, const Tensor &index);
Tensor gather(const Tensor &self, int64_t dim, const Tensor &index,
              bool sparse_grad = false);
Tensor isfinite(const Tensor &self);
Tensor nan_to_num(const Tensor &self, optional<double> nan = c10::nullopt,
                  optional<double> posinf = c10::nullopt,
                  optional<double> neginf = c10::nullopt);
Tensor sum(const Tensor &self, optional<ScalarType> dtype = c10::nullopt);
Tensor mean(const Tensor &self, optional<ScalarType> dtype = c10::nullopt);
Tensor std(const Tensor &self, bool unbiased = true);
Tensor embedding(const Tensor &weight, const Tensor &indices,
                 int64_t padding_idx = -1, bool scale_grad_by_freq = false,
                 bool sparse = false);
Tensor one_hot(const Tensor &self, int64_t num_classes = -1);
Tensor nll_loss(const Tensor &self, const Tensor &target,
                const optional<Tensor> &weight = {}, int64_t reduction = 1,
                int64_t ignore_index = -100);
Tensor cross_entropy_loss(const Tensor &self, const Tensor &target,
                          const optional<Tensor> &weight = {},
                          int64_t reduction = 1, int64_t ignore_index = -100,
                          double label_smoothing = 0.0);
Tensor binary_cross_entropy(const Tensor &self, const Tensor &target,
                            const optional<Tensor> &weight = {},
                            int64_t reduction = 1);
Tensor binary_cross_entropy_with_logits(const Tensor &self,
                                        const Tensor &target,
                                        const optional<Tensor> &weight = {},
                                        const optional<Tensor> &pos_weight = {},
                                        int64_t reduction = 1);
Tensor mse_loss(const Tensor &self, const Tensor &target,
                int64_t reduction = 1);
Tensor l1_loss(const Tensor &self, const Tensor &target, int64_t reduction = 1);
Tensor smooth_l1_loss(const Tensor &self, const Tensor &target,
                      int64_t reduction = 1, double beta = 1.0);
Tensor empty_like(const Tensor &self, TensorOptions options = {});
Tensor zeros_like(const Tensor &self, TensorOptions options = {});
Tensor ones_like(const Tensor &self, TensorOptions options = {});
Tensor randn_like(const Tensor &self, TensorOptions options = {});
Tensor rand_like(const Tensor &self, TensorOptions options = {});

} // namespace at

namespace torch {
using namespace at;

namespace detail {
class TensorDataContainer {
public:
  TensorDataContainer(int value);
  TensorDataContainer(long value);
  TensorDataContainer(float value);
  TensorDataContainer(double value);
  TensorDataContainer(bool value);
  TensorDataContainer(std::initializer_list<TensorDataContainer> init_list);
  TensorDataContainer(const std::vector<int64_t> &values);
  TensorDataContainer(const std::vector<float> &values);
};
} // namespace detail

// Factories that set requires_grad (torch/csrc/autograd/generated/
// variable_factories.h).
at::Tensor tensor(detail::TensorDataContainer tensor_data_container,
                  const at::TensorOptions &options = {});
at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor rand(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value,
                at::TensorOptions options = {});
at::Tensor arange(const at::Scalar &end, at::TensorOptions options = {});
at::Tensor arange(const at::Scalar &start, const at::Scalar &end,
                  at::TensorOptions options = {});
at::Tensor linspace(const at::Scalar &start, const at::Scalar &end,
                    int64_t steps, at::TensorOptions options = {});
at::Tensor randint(int64_t high, at::IntArrayRef size,
                   at::TensorOptions options = at::kLong);
at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size,
                   at::TensorOptions options = at::kLong);
at::Tensor from_blob(void *data, at::IntArrayRef sizes,
                     const at::TensorOptions &options = at::TensorOptions());

using AutoGradMode = c10::AutoGradMode;
using NoGradGuard = c10::NoGradGuard;

namespace nn {

class Module;

template <typename Contained> class ModuleHolder {
public:
  ModuleHolder();
  ModuleHolder(std::nullptr_t);
  ModuleHolder(std::shared_ptr<Contained> module);
  template <typename Head, typename... Tail>
  explicit ModuleHolder(Head &&head, Tail &&...tail);
  Contained *operator->();
  const Contained *operator->() const;
  Contained &operator*();
  template <typename... Args>
  auto operator()(Args &&...args)
      -> decltype(std::declval<Contained &>().forward(
          std::forward<Args>(args)...));
  std::shared_ptr<Contained> ptr() const;
};

class Module {
public:
  Module();
  virtual ~Module();
  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, std::shared_ptr<ModuleType> module);
  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, ModuleHolder<ModuleType> module_holder);
  at::Tensor &register_parameter(std::string name, at::Tensor tensor,
                                 bool requires_grad = true);
  at::Tensor &register_buffer(std::string name, at::Tensor tensor);
  std::vector<at::Tensor> parameters(bool recurse = true) const;
  virtual void to(at::Device device, bool non_blocking = false);
  virtual void to(at::ScalarType dtype, bool non_blocking = false);
  virtual void train(bool on = true);
  void eval();
  virtual void zero_grad(bool set_to_none = true);
};

template <typename Derived> class Cloneable : public Module {};

#define GPUGUARD_MOCK_TORCH_MODULE(Name)                                       \
  class Name : public torch::nn::ModuleHolder<Name##Impl> {                    \
  public:                                                                      \
    using torch::nn::ModuleHolder<Name##Impl>::ModuleHolder;                   \
  }
#define TORCH_MODULE(Name) GPUGUARD_MOCK_TORCH_MODULE(Name)

struct LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features);
  LinearOptions &bias(bool bias);
};
class LinearImpl : public Cloneable<LinearImpl> {
public:
  LinearImpl(int64_t in_features, int64_t out_features);
  explicit LinearImpl(const LinearOptions &options);
  at::Tensor forward(const at::Tensor &input);
  at::Tensor weight;
  at::Tensor bias;
};
GPUGUARD_MOCK_TORCH_MODULE(Linear);

struct EmbeddingOptions {
  EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim);
  EmbeddingOptions &padding_idx(optional<int64_t> padding_idx);
};
class EmbeddingImpl : public Cloneable<EmbeddingImpl> {
public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim);
  explicit EmbeddingImpl(EmbeddingOptions options);
  at::Tensor forward(const at::Tensor &indices);
  at::Tensor weight;
};
GPUGUARD_MOCK_TORCH_MODULE(Embedding);

// The options with `inplace`, shaped as LibTorch 1.13's TORCH_ARG.
struct ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false);
  ReLUOptions &inplace(const bool &new_inplace);
};
class ReLUImpl : public Cloneable<ReLUImpl> {
public:
  explicit ReLUImpl(const ReLUOptions &options_ = {});
  at::Tensor forward(at::Tensor input);
};
GPUGUARD_MOCK_TORCH_MODULE(ReLU);

struct LeakyReLUOptions {
  LeakyReLUOptions();
  LeakyReLUOptions &negative_slope(const double &new_negative_slope);
  LeakyReLUOptions &inplace(const bool &new_inplace);
};
class LeakyReLUImpl : public Cloneable<LeakyReLUImpl> {
public:
  explicit LeakyReLUImpl(const LeakyReLUOptions &options_ = {});
  at::Tensor forward(at::Tensor input);
};
GPUGUARD_MOCK_TORCH_MODULE(LeakyReLU);

struct DropoutOptions {
  DropoutOptions(double p = 0.5);
  DropoutOptions &inplace(const bool &new_inplace);
};
class DropoutImpl : public Cloneable<DropoutImpl> {
public:
  explicit DropoutImpl(const DropoutOptions &options = {});
  at::Tensor forward(at::Tensor input);
};
GPUGUARD_MOCK_TORCH_MODULE(Dropout);

struct LayerNormOptions {
  LayerNormOptions(std::vector<int64_t> normalized_shape);
  LayerNormOptions &eps(double eps);
};
class LayerNormImpl : public Cloneable<LayerNormImpl> {
public:
  explicit LayerNormImpl(LayerNormOptions options);
  at::Tensor forward(const at::Tensor &input);
};
GPUGUARD_MOCK_TORCH_MODULE(LayerNorm);

class SequentialImpl : public Cloneable<SequentialImpl> {
public:
  template <typename... Modules> explicit SequentialImpl(Modules &&...modules);
  at::Tensor forward(at::Tensor input);
};
GPUGUARD_MOCK_TORCH_MODULE(Sequential);

namespace detail {
enum class Reduction { None, Mean, Sum };
} // namespace detail

struct CrossEntropyLossOptions {
  CrossEntropyLossOptions();
  CrossEntropyLossOptions &ignore_index(const int64_t &ignore_index);
  CrossEntropyLossOptions &label_smoothing(const double &label_smoothing);
};
struct NLLLossOptions {
  NLLLossOptions();
  NLLLossOptions &ignore_index(const int64_t &ignore_index);
};
struct BCELossOptions {
  BCELossOptions();
};
struct BCEWithLogitsLossOptions {
  BCEWithLogitsLossOptions();
  BCEWithLogitsLossOptions &pos_weight(const at::Tensor &pos_weight);
};
struct MSELossOptions {
  MSELossOptions();
};
struct L1LossOptions {
  L1LossOptions();
};
struct SmoothL1LossOptions {
  SmoothL1LossOptions();
};

#define GPUGUARD_MOCK_TORCH_LOSS(Name)                                         \
  class Name##Impl : public Cloneable<Name##Impl> {                            \
  public:                                                                      \
    explicit Name##Impl(Name##Options options = {});                           \
    at::Tensor forward(const at::Tensor &input, const at::Tensor &target);     \
  };                                                                           \
  GPUGUARD_MOCK_TORCH_MODULE(Name)
GPUGUARD_MOCK_TORCH_LOSS(CrossEntropyLoss);
GPUGUARD_MOCK_TORCH_LOSS(NLLLoss);
GPUGUARD_MOCK_TORCH_LOSS(BCELoss);
GPUGUARD_MOCK_TORCH_LOSS(BCEWithLogitsLoss);
GPUGUARD_MOCK_TORCH_LOSS(MSELoss);
GPUGUARD_MOCK_TORCH_LOSS(L1Loss);
GPUGUARD_MOCK_TORCH_LOSS(SmoothL1Loss);

namespace functional {
using CrossEntropyFuncOptions = CrossEntropyLossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using MSELossFuncOptions = MSELossOptions;
using L1LossFuncOptions = L1LossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;
struct EmbeddingFuncOptions {
  EmbeddingFuncOptions();
  EmbeddingFuncOptions &padding_idx(optional<int64_t> padding_idx);
};
struct SoftmaxFuncOptions {
  SoftmaxFuncOptions(int64_t dim);
};
struct LogSoftmaxFuncOptions {
  LogSoftmaxFuncOptions(int64_t dim);
};

at::Tensor cross_entropy(const at::Tensor &input, const at::Tensor &target,
                         const CrossEntropyFuncOptions &options = {});
at::Tensor nll_loss(const at::Tensor &input, const at::Tensor &target,
                    const NLLLossFuncOptions &options = {});
at::Tensor
binary_cross_entropy(const at::Tensor &input, const at::Tensor &target,
                     const BinaryCrossEntropyFuncOptions &options = {});
at::Tensor binary_cross_entropy_with_logits(
    const at::Tensor &input, const at::Tensor &target,
    const BinaryCrossEntropyWithLogitsFuncOptions &options = {});
at::Tensor mse_loss(const at::Tensor &input, const at::Tensor &target,
                    const MSELossFuncOptions &options = {});
at::Tensor l1_loss(const at::Tensor &input, const at::Tensor &target,
                   const L1LossFuncOptions &options = {});
at::Tensor smooth_l1_loss(const at::Tensor &input, const at::Tensor &target,
                          const SmoothL1LossFuncOptions &options = {},
                          double beta = 1.);
at::Tensor embedding(const at::Tensor &input, const at::Tensor &weight,
                     const EmbeddingFuncOptions &options = {});
at::Tensor one_hot(const at::Tensor &tensor, int64_t num_classes = -1);
using ReLUFuncOptions = ReLUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;
struct DropoutFuncOptions {
  DropoutFuncOptions();
  DropoutFuncOptions &p(const double &new_p);
  DropoutFuncOptions &inplace(const bool &new_inplace);
};
namespace detail {
at::Tensor relu(at::Tensor input, bool inplace);
} // namespace detail
at::Tensor relu(at::Tensor input, const ReLUFuncOptions &options = {});
at::Tensor leaky_relu(at::Tensor input,
                      const LeakyReLUFuncOptions &options = {});
at::Tensor dropout(at::Tensor input, const DropoutFuncOptions &options = {});
at::Tensor softmax(const at::Tensor &input, const SoftmaxFuncOptions &options);
at::Tensor log_softmax(const at::Tensor &input,
                       const LogSoftmaxFuncOptions &options);
} // namespace functional
} // namespace nn

namespace optim {
struct SGDOptions {
  SGDOptions(double lr);
  SGDOptions &momentum(const double &momentum);
};
class Optimizer {
public:
  virtual ~Optimizer();
  virtual at::Tensor step();
  void zero_grad(bool set_to_none = true);
};
class SGD : public Optimizer {
public:
  SGD(std::vector<at::Tensor> params, SGDOptions defaults);
};
struct AdamOptions {
  AdamOptions(double lr = 1e-3);
};
class Adam : public Optimizer {
public:
  Adam(std::vector<at::Tensor> params, AdamOptions defaults = {});
};
} // namespace optim

namespace cuda {
bool is_available();
} // namespace cuda
} // namespace torch

// What C++/CUDA extensions use around their launches (c10/cuda/CUDAGuard.h,
// ATen/cuda/CUDAContext.h).
struct CUstream_st;
namespace c10 {
template <class T> class optional;
struct DeviceGuard {
  explicit DeviceGuard(Device device);
};
namespace cuda {
struct CUDAGuard {
  explicit CUDAGuard(Device device);
  explicit CUDAGuard(DeviceIndex index);
};
struct OptionalCUDAGuard {
  OptionalCUDAGuard();
  explicit OptionalCUDAGuard(Device device);
};
struct CUDAStream {
  operator CUstream_st *() const;
};
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
void set_device(DeviceIndex device);
// PyTorch 2's switches (c10/cuda/CUDAFunctions.h).
void MaybeSetDevice(DeviceIndex device);
DeviceIndex ExchangeDevice(DeviceIndex device);
} // namespace cuda
} // namespace c10
namespace at {
Device device_of(const Tensor &t);
namespace cuda {
using c10::cuda::CUDAGuard;
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::OptionalCUDAGuard;
} // namespace cuda
} // namespace at
