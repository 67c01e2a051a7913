// A residual block whose skip connection adds out of place: `x + f(x)` keeps
// the ReLU output autograd saved, unlike `h += x`.
#include <torch/torch.h>

#include <iostream>

struct ResidualImpl : torch::nn::Module {
  explicit ResidualImpl(int64_t dim)
      : inner(register_module("inner", torch::nn::Linear(dim, dim))),
        outer(register_module("outer", torch::nn::Linear(dim, dim))) {}

  torch::Tensor forward(const torch::Tensor &x) {
    const auto h = torch::relu(inner(x));
    return x + outer(h);
  }

  torch::nn::Linear inner, outer;
};
TORCH_MODULE(Residual);

int main() {
  torch::manual_seed(17);
  Residual block(8);
  const auto x = torch::randn({5, 8}, torch::requires_grad());
  const auto y = block(block(x));
  y.sum().backward();
  std::cout << "x grad norm " << x.grad().norm().item<float>() << "\n";
  return 0;
}
