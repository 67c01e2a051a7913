//===--- TorchOps.cpp - ATen op tables from PyTorch's data ----------------===//

#include "Analysis/Torch/TorchOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace gpuguard::torch {
namespace {

struct Overload {
  StringRef Kinds;
  /// Per parameter: none when not differentiable, else what it reads.
  SmallVector<std::optional<SavedOperands>, 4> Uses;
};

struct Tables {
  StringMap<InplaceOpVariants> Inplace;
  StringSet<> Views;
  StringMap<SmallVector<Overload, 2>> Saving;
  StringMap<StringRef> Composites;
  StringSet<> Pointwise;
  StringSet<> Reductions;
  StringMap<FactoryKind> Factories;
  StringMap<unsigned> Traits;

  Tables() {
#define GPUGUARD_INPLACE_OP(Name, Method, Function)                            \
  Inplace[Name] = InplaceOpVariants{Method, Function};
#define GPUGUARD_VIEW_OP(Name) Views.insert(Name);
#define GPUGUARD_SAVING_OP(Name, OverloadName, Kinds, Uses)                    \
  Saving[Name].push_back(parseOverload(Kinds, Uses));
#define GPUGUARD_COMPOSITE_OP(Name, Target) Composites[Name] = Target;
#define GPUGUARD_POINTWISE_OP(Name) Pointwise.insert(Name);
#define GPUGUARD_REDUCTION_OP(Name) Reductions.insert(Name);
#define GPUGUARD_FACTORY_OP(Name, FromTensor)                                  \
  Factories[Name] = FromTensor ? FactoryKind::Like : FactoryKind::New;
#include "TorchOps.inc"
#define GPUGUARD_OP_TRAITS(Name, OpTraits) Traits[Name] = OpTraits;
#include "OpTraits.def"
  }

  static Overload parseOverload(StringRef Kinds, StringRef Uses) {
    Overload Result;
    Result.Kinds = Kinds;
    SmallVector<StringRef, 8> Fields;
    Uses.split(Fields, '|');
    for (StringRef Field : Fields) {
      if (Field == "-") {
        Result.Uses.push_back(std::nullopt);
        continue;
      }
      SavedOperands Saved;
      SmallVector<StringRef, 4> Items;
      Field.split(Items, ',', -1, /*KeepEmpty=*/false);
      for (StringRef Item : Items) {
        unsigned Index = 0;
        if (Item == "r")
          Saved.Result = true;
        else if (!Item.getAsInteger(10, Index))
          Saved.Arguments.push_back(Index);
      }
      Result.Uses.push_back(std::move(Saved));
    }
    return Result;
  }
};

const Tables &tables() {
  static const Tables Instance;
  return Instance;
}

StringRef autogradName(StringRef Name) {
  auto It = tables().Composites.find(Name);
  return It == tables().Composites.end() ? Name : It->second;
}

bool matches(const Overload &Candidate, ArrayRef<OpArgument> Args) {
  if (Args.size() > Candidate.Kinds.size())
    return false;
  for (unsigned I = 0; I < Args.size(); ++I) {
    char Kind = Candidate.Kinds[I];
    if (Kind == 'T' && !Args[I].IsTensor)
      return false;
    if ((Kind == 'S' || Kind == 'L') && Args[I].IsTensor)
      return false;
  }
  // Parameters left out must be ones a call may omit; a tensor parameter
  // with no default cannot be, and the schemas put those first.
  for (unsigned I = Args.size(); I < Candidate.Kinds.size(); ++I)
    if (Candidate.Kinds[I] == 'T')
      return false;
  return true;
}

} // namespace

std::optional<InplaceOpVariants> inplaceOp(StringRef Name) {
  auto It = tables().Inplace.find(Name);
  if (It == tables().Inplace.end())
    return std::nullopt;
  return It->second;
}

bool isViewOp(StringRef Name) { return tables().Views.contains(Name); }

unsigned opTraits(StringRef Name) {
  const StringMap<unsigned> &Traits = tables().Traits;
  auto It = Traits.find(Name);
  if (It == Traits.end() && Name.ends_with("_"))
    It = Traits.find(Name.drop_back());
  return It == Traits.end() ? 0 : It->second;
}

bool isPointwiseOp(StringRef Name) {
  StringRef Base = Name.ends_with("_") ? Name.drop_back() : Name;
  return tables().Pointwise.contains(Base) ||
         (opTraits(Name) & Elementwise) != 0;
}

bool isReductionOp(StringRef Name) {
  return tables().Reductions.contains(Name);
}

FactoryKind factoryKind(StringRef Name) {
  auto It = tables().Factories.find(Name);
  return It == tables().Factories.end() ? FactoryKind::None : It->second;
}

bool isDifferentiableOp(StringRef Name) {
  return tables().Saving.contains(autogradName(Name));
}

std::optional<SavedOperands> savedForBackward(StringRef Name,
                                              ArrayRef<OpArgument> Args) {
  auto It = tables().Saving.find(autogradName(Name));
  if (It == tables().Saving.end())
    return std::nullopt;
  std::optional<SavedOperands> Common;
  for (const Overload &Candidate : It->second) {
    if (!matches(Candidate, Args))
      continue;
    SavedOperands Saved;
    for (unsigned I = 0; I < Args.size(); ++I) {
      if (!Args[I].RequiresGrad || I >= Candidate.Uses.size() ||
          !Candidate.Uses[I])
        continue;
      for (unsigned Index : Candidate.Uses[I]->Arguments)
        if (Index < Args.size() && Args[Index].IsTensor &&
            !is_contained(Saved.Arguments, Index))
          Saved.Arguments.push_back(Index);
      Saved.Result |= Candidate.Uses[I]->Result;
    }
    if (!Common) {
      Common = std::move(Saved);
      continue;
    }
    erase_if(Common->Arguments, [&](unsigned Index) {
      return !is_contained(Saved.Arguments, Index);
    });
    Common->Result &= Saved.Result;
  }
  return Common;
}

} // namespace gpuguard::torch
