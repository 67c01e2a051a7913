//===--- DeviceInferenceTest.cpp - Tests of the device inference ----------===//

#include "Analysis/Torch/DeviceInference.h"
#include "Analysis/Torch/TorchApi.h"
#include "AnalysisTestSupport.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace gpuguard::torch;

namespace {

/// Parses \p Code after the mock <torch/torch.h> and the `use` probes.
std::unique_ptr<ASTUnit> parseTorch(const std::string &Code) {
  return gpuguard::test::parseTorch(Code,
                                    "void use(const torch::Tensor &);\n"
                                    "void use(const torch::Device &);\n"
                                    "void use(const torch::TensorOptions &);\n"
                                    "bool flag();\n");
}

/// What the analysis knows at each `use(e)` of function `f`, in order:
/// "cuda:1", "cpu", "unknown", with " 0d" for a tensor that may be 0-dim,
/// "options without device" for options that name none.
std::vector<std::string> devicesAtUses(const std::string &Code,
                                       bool WithDims = false) {
  std::vector<std::pair<unsigned, std::string>> Seen;
  std::unique_ptr<ASTUnit> Unit = parseTorch(Code);
  if (!Unit)
    return {};
  const FunctionDecl *Function =
      gpuguard::test::findFunction(Unit->getASTContext(), "f");
  EXPECT_TRUE(Function);
  if (!Function)
    return {};
  DeviceInference Inference(*Function, Unit->getASTContext());
  Inference.forEachReachable([&](const Stmt *S, const DeviceFacts &Facts) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !Callee->getIdentifier() || Callee->getName() != "use")
      return;
    DeviceInfo Info = Inference.deviceOf(Call->getArg(0), Facts);
    std::string Text = Info.NoDevice ? "options without device"
                       : Info.Dev    ? Info.Dev->str()
                                     : "unknown";
    if (WithDims && Info.MaybeZeroDim)
      Text += " 0d";
    // Blocks are visited in no particular order: sort by position.
    Seen.emplace_back(
        Unit->getSourceManager().getFileOffset(Call->getBeginLoc()), Text);
  });
  llvm::sort(Seen);
  std::vector<std::string> Texts;
  for (auto &[Offset, Text] : Seen)
    Texts.push_back(Text);
  return Texts;
}

using Devices = std::vector<std::string>;

TEST(DeviceInferenceTest, ParsesDeviceStrings) {
  EXPECT_EQ(parseDeviceString("cuda:1")->str(), "cuda:1");
  EXPECT_EQ(parseDeviceString("cuda")->str(), "cuda");
  EXPECT_EQ(parseDeviceString("cpu")->str(), "cpu");
  EXPECT_FALSE(parseDeviceString("cuda:x"));
  EXPECT_FALSE(parseDeviceString("tpu"));
}

TEST(DeviceInferenceTest, ProvablyDifferentDevices) {
  Device Cpu{DeviceKind::CPU, -1};
  Device Cuda{DeviceKind::CUDA, -1};
  Device Cuda0{DeviceKind::CUDA, 0};
  Device Cuda1{DeviceKind::CUDA, 1};
  EXPECT_TRUE(provablyDifferent(Cpu, Cuda));
  EXPECT_TRUE(provablyDifferent(Cuda0, Cuda1));
  EXPECT_TRUE(provablyDifferent(Cpu, Cuda1));
  EXPECT_FALSE(provablyDifferent(Cuda, Cuda1));
  EXPECT_FALSE(provablyDifferent(Cuda0, Cuda0));
}

TEST(DeviceInferenceTest, Factories) {
  EXPECT_EQ(devicesAtUses(R"(
    void f() {
      use(torch::randn({2}, torch::kCUDA));
      use(torch::zeros({2}));
      use(torch::ones({2}, torch::dtype(torch::kFloat).device(torch::kCUDA)));
      use(torch::ones({2}, torch::TensorOptions().device(torch::kCUDA, 1)));
      use(torch::arange(3, torch::kLong));
      auto opts = torch::TensorOptions().dtype(torch::kFloat);
      use(torch::empty({2}, opts));
    })"),
            (Devices{"cuda", "cpu", "cuda", "cuda:1", "cpu", "cpu"}));
}

TEST(DeviceInferenceTest, DevicesAndOptions) {
  EXPECT_EQ(devicesAtUses(R"(
    void f() {
      torch::Device a("cuda:1");
      torch::Device b(torch::kCUDA);
      torch::Device c = torch::kCPU;
      torch::Device d =
          torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
      auto o = torch::TensorOptions().device(a);
      use(a); use(b); use(c); use(d); use(o);
      use(torch::TensorOptions());
    })"),
            (Devices{"cuda:1", "cuda", "cpu", "unknown", "cuda:1",
                     "options without device"}));
}

TEST(DeviceInferenceTest, Moves) {
  EXPECT_EQ(devicesAtUses(R"(
    void f(torch::Tensor p) {
      auto t = torch::randn({2});
      use(t.cuda());
      use(t.cuda().cpu());
      use(t.to(torch::kCUDA));
      use(t.to(torch::Device("cuda:0")));
      use(t.to(torch::kDouble));
      auto g = t.cuda();
      use(t.to(g.device()));
      use(t.to(g));
      use(t.to(p.device()));
      use(p.cuda());
    })"),
            (Devices{"cuda", "cpu", "cuda", "cuda:0", "cpu", "cuda", "cuda",
                     "unknown", "cuda"}));
}

TEST(DeviceInferenceTest, ResultsOfOps) {
  EXPECT_EQ(devicesAtUses(R"(
    void f(torch::Tensor p) {
      auto a = torch::randn({2}, torch::kCUDA);
      auto b = torch::randn({2});
      use(a * 2 + a);
      use(a.relu());
      use(torch::zeros_like(a));
      use(torch::zeros_like(a, torch::kCPU));
      use(torch::cat({a, a}));
      use(a + p);
      use(a + b);
      use(a + torch::tensor(1.0));
    })"),
            (Devices{"cuda", "cuda", "cuda", "cpu", "cuda", "cuda", "unknown",
                     "cuda"}));
}

TEST(DeviceInferenceTest, ZeroDimTensors) {
  EXPECT_EQ(devicesAtUses(R"(
    void f() {
      auto b = torch::randn({2});
      use(torch::tensor(2.0));
      use(torch::tensor({2.0}));
      use(b);
      use(b.sum());
      use(b * 2);
      use(torch::randn({}));
      use(b.sum().cuda());
      use(b.sum({0}, /*keepdim=*/true));
      use(b.sum({0}));
    })",
                          /*WithDims=*/true),
            (Devices{"cpu 0d", "cpu", "cpu", "cpu 0d", "cpu", "cpu 0d",
                     "cuda 0d", "cpu", "cpu 0d"}));
}

TEST(DeviceInferenceTest, FlowSensitive) {
  EXPECT_EQ(devicesAtUses(R"(
    void reset(torch::Tensor &);
    void f() {
      auto t = torch::randn({2});
      use(t);
      t = t.cuda();
      use(t);
      if (flag())
        t = t.cpu();
      use(t);
      auto u = torch::randn({2});
      if (flag())
        u = u.cuda();
      else
        u = u.to(torch::kCUDA);
      use(u);
      reset(u);
      use(u);
      auto v = torch::randn({2});
      auto &alias = v;
      alias = alias.cuda();
      use(v);
      torch::Device d = torch::kCPU;
      if (flag())
        d = torch::Device(torch::kCUDA, 0);
      use(d);
    })"),
            (Devices{"cpu", "cuda", "unknown", "cuda", "unknown", "unknown",
                     "unknown"}));
}

TEST(DeviceInferenceTest, Loops) {
  EXPECT_EQ(devicesAtUses(R"(
    void f() {
      auto t = torch::randn({2});
      for (int i = 0; i < 3; ++i) {
        use(t);
        t = t.cuda();
      }
      use(t);
      auto s = torch::randn({2}, torch::kCUDA);
      while (flag())
        s = s * 2;
      use(s);
    })"),
            (Devices{"unknown", "unknown", "cuda"}));
}

TEST(DeviceInferenceTest, Modules) {
  EXPECT_EQ(devicesAtUses(R"(
    struct Net : torch::nn::Module {
      Net() { fc = register_module("fc", torch::nn::Linear(2, 2)); }
      torch::Tensor forward(torch::Tensor x) { return fc(x); }
      torch::nn::Linear fc{nullptr};
    };
    struct Moved : torch::nn::Module {
      Moved() {
        fc = register_module("fc", torch::nn::Linear(2, 2));
        fc->to(torch::kCUDA);
      }
      torch::Tensor forward(torch::Tensor x) { return fc(x); }
      torch::nn::Linear fc{nullptr};
    };
    struct CudaParameter : torch::nn::Module {
      CudaParameter() {
        w = register_parameter("w", torch::randn({2}, torch::kCUDA));
      }
      torch::Tensor forward(torch::Tensor x) { return x * w; }
      torch::Tensor w;
    };
    void f() {
      auto x = torch::randn({2});
      torch::nn::Linear fc(2, 2);
      use(fc(x));
      fc->to(torch::kCUDA);
      use(fc(x));
      auto net = std::make_shared<Net>();
      use(net->forward(x));
      net->to(torch::Device("cuda:1"));
      use(net->forward(x));
      use(std::make_shared<Moved>()->forward(x));
      auto moved = std::make_shared<Moved>();
      use(moved->forward(x));
      auto cudaParameter = std::make_shared<CudaParameter>();
      use(cudaParameter->forward(x));
      torch::nn::ReLU relu;
      use(relu(x.cuda()));
    })"),
            (Devices{"cpu", "cuda", "cpu", "cuda:1", "unknown", "unknown",
                     "unknown", "cuda"}));
}

TEST(DeviceInferenceTest, ConstructedModules) {
  std::unique_ptr<ASTUnit> Unit = parseTorch(R"(
    struct Empty : torch::nn::Module {};
    struct Helper : torch::nn::Module {
      Helper() { build(); }
      void build();
    };
    struct Placed : torch::nn::Module {
      Placed(int width, torch::Device device) {
        register_parameter("w", torch::ones({width}));
        to(device);
      }
    };
    Empty e; Helper h;
  )");
  ASSERT_TRUE(Unit);
  ASTContext &Context = Unit->getASTContext();
  auto ClassOf = [&](llvm::StringRef Name) -> const CXXRecordDecl * {
    for (const Decl *D : Context.getTranslationUnitDecl()->decls())
      if (const auto *Record = dyn_cast<CXXRecordDecl>(D))
        if (Record->getIdentifier() && Record->getName() == Name &&
            Record->isThisDeclarationADefinition())
          return Record;
    return nullptr;
  };
  EXPECT_TRUE(constructedModuleDevice(ClassOf("Empty"), Context).NoParameters);
  DeviceInfo Helper = constructedModuleDevice(ClassOf("Helper"), Context);
  EXPECT_FALSE(Helper.Dev);
  EXPECT_FALSE(Helper.NoParameters);
  // Moved, last, to the device its constructor is given: unknown alone,
  // and the index of that parameter for whoever sees the construction.
  std::optional<unsigned> MovedTo;
  EXPECT_FALSE(constructedModuleDevice(ClassOf("Placed"), Context).Dev);
  EXPECT_FALSE(
      constructedModuleDevice(ClassOf("Placed"), Context, &MovedTo).Dev);
  EXPECT_EQ(MovedTo, std::optional<unsigned>(1));
}

} // namespace

namespace {

TEST(DeviceInferenceTest, HelpersReturnWhatTheirOwnCodeFixes) {
  EXPECT_EQ(
      devicesAtUses("torch::Tensor onCpu(const torch::Tensor &x) {\n"
                    "  return torch::arange(x.size(0));\n"
                    "}\n"
                    "torch::Tensor twoDeep(const torch::Tensor &x) {\n"
                    "  return onCpu(x).to(torch::kCUDA) * 2;\n"
                    "}\n"
                    "torch::Tensor likeArgument(const torch::Tensor &x) {\n"
                    "  return torch::arange(x.size(0), x.options());\n"
                    "}\n"
                    "torch::Tensor disagree(bool b) {\n"
                    "  if (b) return torch::ones({2}, torch::kCUDA);\n"
                    "  return torch::ones({2});\n"
                    "}\n"
                    "torch::Tensor elsewhere(const torch::Tensor &x);\n"
                    "torch::Tensor recursive(int n) {\n"
                    "  return n ? recursive(n - 1) : torch::ones({2});\n"
                    "}\n"
                    "void f(torch::Tensor x) {\n"
                    "  use(onCpu(x));\n"
                    "  use(twoDeep(x));\n"
                    "  use(likeArgument(x));\n"
                    "  use(disagree(flag()));\n"
                    "  use(elsewhere(x));\n"
                    "  use(recursive(3));\n"
                    "}\n"),
      (Devices{"cpu", "cuda", "unknown", "unknown", "unknown", "unknown"}));
}

TEST(DeviceInferenceTest, HelpersReturnTheirArgumentsDevice) {
  EXPECT_EQ(
      devicesAtUses("torch::Tensor likeArgument(const torch::Tensor &x) {\n"
                    "  return torch::arange(x.size(0), x.options());\n"
                    "}\n"
                    "torch::Tensor second(torch::Tensor a, torch::Tensor b) {\n"
                    "  return b.to(torch::kDouble) * 2;\n"
                    "}\n"
                    "torch::Tensor rebinds(torch::Tensor &x) {\n"
                    "  x = torch::ones({2});\n"
                    "  return x;\n"
                    "}\n"
                    "torch::Tensor either(const torch::Tensor &a, "
                    "const torch::Tensor &b, bool c) {\n"
                    "  if (c) return a;\n"
                    "  return b;\n"
                    "}\n"
                    "void f(torch::Tensor unknown) {\n"
                    "  auto g = torch::randn({2}, torch::kCUDA);\n"
                    "  auto c = torch::randn({2});\n"
                    "  use(likeArgument(g));\n"
                    "  use(second(g, c));\n"
                    "  use(likeArgument(unknown));\n"
                    "  use(rebinds(g));\n"
                    "  use(either(g, c, flag()));\n"
                    "}\n"),
      (Devices{"cuda", "cpu", "unknown", "unknown", "unknown"}));
}

} // namespace

/// For each call of `f` that meets a parameter: "callee:argument".
std::vector<std::string> meetingsAtCalls(const std::string &Code) {
  std::vector<std::pair<unsigned, std::string>> Seen;
  std::unique_ptr<ASTUnit> Unit = parseTorch(Code);
  if (!Unit)
    return {};
  ASTContext &Context = Unit->getASTContext();
  const FunctionDecl *Function = gpuguard::test::findFunction(Context, "f");
  EXPECT_TRUE(Function);
  if (!Function)
    return {};
  DeviceInference Inference(*Function, Context);
  llvm::SmallPtrSet<const Stmt *, 8> Visited;
  Inference.forEachReachable([&](const Stmt *S, const DeviceFacts &) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || !Visited.insert(Call).second)
      return;
    for (const ParameterMeeting &Meeting : Inference.meetingsOf(*Call)) {
      const ValueDecl *Argument = referencedDecl(Meeting.Argument);
      Seen.emplace_back(
          Unit->getSourceManager().getFileOffset(Call->getBeginLoc()),
          Meeting.Function->getNameAsString() + ":" +
              (Argument ? Argument->getNameAsString() : "?"));
    }
  });
  llvm::sort(Seen);
  std::vector<std::string> Texts;
  for (auto &[Offset, Text] : Seen)
    Texts.push_back(Text);
  return Texts;
}

TEST(DeviceInferenceTest, MeetingsFollowTheCalledFunctionsArguments) {
  EXPECT_EQ(
      meetingsAtCalls("torch::Tensor addPos(int n, const torch::Tensor &x) {\n"
                      "  return x + torch::arange(x.size(1));\n"
                      "}\n"
                      "struct PosImpl : torch::nn::Module {\n"
                      "  torch::Tensor forward(torch::Tensor x) {\n"
                      "    return x + torch::arange(x.size(1));\n"
                      "  }\n"
                      "};\n"
                      "TORCH_MODULE(Pos);\n"
                      "struct Scale {\n"
                      "  torch::Tensor operator()(torch::Tensor x) {\n"
                      "    return x * torch::ones({3});\n"
                      "  }\n"
                      "};\n"
                      "void f(torch::Tensor a, torch::Tensor b) {\n"
                      "  addPos(1, a);\n"
                      "  Pos p;\n"
                      "  p(b);\n"
                      "  p->forward(a);\n"
                      "  Scale s;\n"
                      "  s(b);\n"
                      "}\n"),
      (std::vector<std::string>{"addPos:a", "forward:b", "forward:a",
                                "operator():b"}));
}

TEST(DeviceInferenceTest, MeetingsFollowArgumentsPassedOnThreeCallsDeep) {
  // Each meeting is named by the function called, with the calls it passes
  // the argument through.
  std::string Helpers =
      "torch::Tensor meet(const torch::Tensor &x) {\n"
      "  return x + torch::arange(x.size(1));\n"
      "}\n"
      "torch::Tensor one(const torch::Tensor &x) {\n"
      "  return meet(x * 2);\n"
      "}\n"
      "torch::Tensor two(torch::Tensor x) { return one(x); }\n"
      "torch::Tensor three(torch::Tensor x) { return two(x); }\n"
      "torch::Tensor branch(torch::Tensor x, bool b) {\n"
      "  if (b) return one(x);\n"
      "  return x;\n"
      "}\n"
      "torch::Tensor own(torch::Tensor x) {\n"
      "  return one(torch::ones({2, 2})) + x;\n"
      "}\n";
  EXPECT_EQ(meetingsAtCalls(Helpers + "void f(torch::Tensor a) {\n"
                                      "  one(a);\n"
                                      "  two(a);\n"
                                      "  three(a);\n"
                                      "  branch(a, true);\n"
                                      "  own(a);\n"
                                      "}\n"),
            (std::vector<std::string>{"one:a", "two:a"}));
}

TEST(DeviceInferenceTest, ForwardCallsRunTheOverloadTheyResolveTo) {
  EXPECT_EQ(
      meetingsAtCalls("struct PosImpl : torch::nn::Module {\n"
                      "  torch::Tensor forward(torch::Tensor x) {\n"
                      "    return x + torch::arange(x.size(1));\n"
                      "  }\n"
                      "  torch::Tensor forward(torch::Tensor x, int64_t n) {\n"
                      "    return x * n;\n"
                      "  }\n"
                      "  torch::Tensor forward(torch::Tensor x,\n"
                      "                        torch::Tensor y) {\n"
                      "    return x + torch::ones({2});\n"
                      "  }\n"
                      "};\n"
                      "TORCH_MODULE(Pos);\n"
                      "void f(torch::Tensor a, torch::Tensor b) {\n"
                      "  Pos p;\n"
                      "  p->forward(a);\n"
                      "  p->forward(a, 2);\n"
                      "  p->forward(b, a);\n"
                      "}\n"),
      (std::vector<std::string>{"forward:a", "forward:b"}));
}
