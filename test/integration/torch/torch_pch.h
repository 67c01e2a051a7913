// The header the LibTorch integration tests precompile once per build.
#include <torch/torch.h>
