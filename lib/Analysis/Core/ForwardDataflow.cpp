//===--- ForwardDataflow.cpp - Forward dataflow over a CFG ----------------===//

#include "Analysis/Core/ForwardDataflow.h"
#include "clang/AST/Decl.h"

using namespace clang;

namespace gpuguard {

std::unique_ptr<CFG> buildDataflowCFG(const FunctionDecl &Function,
                                      ASTContext &Context,
                                      DataflowCFGOptions Options) {
  if (!Function.hasBody())
    return nullptr;
  CFG::BuildOptions BuildOptions;
  // Every statement an element, so that a transfer sees each one.
  BuildOptions.setAllAlwaysAdd();
  BuildOptions.AddEHEdges = Options.ExceptionEdges;
  BuildOptions.AddLifetime = Options.LifetimeEnds;
  BuildOptions.AddInitializers = Options.Initializers;
  return CFG::buildCFG(&Function, Function.getBody(), &Context, BuildOptions);
}

} // namespace gpuguard
