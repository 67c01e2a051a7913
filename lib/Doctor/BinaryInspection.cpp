//===--- BinaryInspection.cpp - What a CUDA program needs to run ----------===//

#include "Doctor/BinaryInspection.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;
using namespace llvm::object;

namespace gpuguard::doctor {

std::optional<CudaVersion> findToolkitRelease(StringRef Bytes) {
  static constexpr StringLiteral Marker = "Cuda compilation tools, release ";
  size_t At = Bytes.find(Marker);
  if (At == StringRef::npos)
    return std::nullopt;
  StringRef Rest = Bytes.substr(At + Marker.size(), 16);
  unsigned Major = 0, Minor = 0;
  StringRef MajorText = Rest.take_while(isDigit);
  Rest = Rest.drop_front(MajorText.size());
  if (MajorText.getAsInteger(10, Major) || !Rest.consume_front("."))
    return std::nullopt;
  if (Rest.take_while(isDigit).getAsInteger(10, Minor))
    return std::nullopt;
  return CudaVersion{Major, Minor};
}

std::optional<unsigned> cudartMajor(StringRef Library) {
  StringRef Name = sys::path::filename(Library);
  if (!Name.consume_front("libcudart.so."))
    return std::nullopt;
  unsigned Major = 0;
  if (Name.take_while(isDigit).getAsInteger(10, Major))
    return std::nullopt;
  return Major;
}

namespace {

constexpr int64_t DtNeeded = 1, DtRpath = 15, DtRunpath = 29;

/// DT_NEEDED, DT_RPATH and DT_RUNPATH of an ELF file, read from its
/// `.dynamic` and `.dynstr` sections.
struct DynamicInfo {
  std::vector<std::string> Needed;
  std::vector<std::string> SearchPaths;
};

DynamicInfo readDynamic(const ELF64LEObjectFile &Object) {
  DynamicInfo Info;
  StringRef Dynamic, Strings;
  for (const SectionRef &Section : Object.sections()) {
    Expected<StringRef> Name = Section.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != ".dynamic" && *Name != ".dynstr")
      continue;
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      continue;
    }
    (*Name == ".dynamic" ? Dynamic : Strings) = *Contents;
  }
  auto StringAt = [&](uint64_t Offset) -> std::string {
    if (Offset >= Strings.size())
      return "";
    return Strings.substr(Offset).take_until([](char C) { return !C; }).str();
  };
  for (size_t At = 0; At + 16 <= Dynamic.size(); At += 16) {
    int64_t Tag = support::endian::read64le(Dynamic.data() + At);
    uint64_t Value = support::endian::read64le(Dynamic.data() + At + 8);
    if (Tag == 0)
      break;
    if (Tag == DtNeeded)
      Info.Needed.push_back(StringAt(Value));
    else if (Tag == DtRpath || Tag == DtRunpath) {
      // Held here: split() refers into it.
      std::string Paths = StringAt(Value);
      for (StringRef Entry : split(Paths, ':'))
        if (!Entry.empty())
          Info.SearchPaths.push_back(Entry.str());
    }
  }
  return Info;
}

/// Where the dynamic loader would find \p Library for \p Binary: its
/// RPATH/RUNPATH (with $ORIGIN), LD_LIBRARY_PATH, then the usual folders.
std::string findLibrary(StringRef Library, StringRef Binary,
                        const std::vector<std::string> &SearchPaths) {
  SmallString<256> Origin(Binary);
  sys::fs::make_absolute(Origin);
  sys::path::remove_filename(Origin);
  std::vector<std::string> Folders;
  for (const std::string &Path : SearchPaths) {
    std::string Folder = Path;
    for (StringRef Variable : {"$ORIGIN", "${ORIGIN}"})
      for (size_t At; (At = Folder.find(Variable.str())) != std::string::npos;)
        Folder.replace(At, Variable.size(), Origin.str().str());
    Folders.push_back(Folder);
  }
  if (std::optional<std::string> Env = sys::Process::GetEnv("LD_LIBRARY_PATH"))
    for (StringRef Entry : split(*Env, ':'))
      if (!Entry.empty())
        Folders.push_back(Entry.str());
  for (StringRef Folder :
       {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
        "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib"})
    Folders.push_back(Folder.str());
  for (const std::string &Folder : Folders) {
    SmallString<256> Candidate(Folder);
    sys::path::append(Candidate, Library);
    if (sys::fs::exists(Candidate))
      return Candidate.str().str();
  }
  return "";
}

struct OpenedElf {
  std::unique_ptr<MemoryBuffer> Buffer;
  std::unique_ptr<ELF64LEObjectFile> Object;
};

Expected<OpenedElf> openElf(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             "cannot read '" + Path +
                                 "': " + Buffer.getError().message());
  Expected<std::unique_ptr<ObjectFile>> Object =
      ObjectFile::createObjectFile((*Buffer)->getMemBufferRef());
  if (!Object) {
    consumeError(Object.takeError());
    return createStringError(inconvertibleErrorCode(),
                             "'" + Path +
                                 "' is not an ELF program or library; give "
                                 "the built executable or shared library");
  }
  if (!isa<ELF64LEObjectFile>(Object->get()))
    return createStringError(inconvertibleErrorCode(),
                             "'" + Path +
                                 "' is not a 64-bit little-endian ELF file; "
                                 "only Linux x86-64 and AArch64 programs are "
                                 "read");
  OpenedElf Opened;
  Opened.Buffer = std::move(*Buffer);
  Opened.Object.reset(cast<ELF64LEObjectFile>(Object->release()));
  return Opened;
}

} // namespace

Expected<BinaryReport> inspectBinary(StringRef Path) {
  Expected<OpenedElf> Opened = openElf(Path);
  if (!Opened)
    return Opened.takeError();
  BinaryReport Report;
  Report.Path = Path.str();
  for (const SectionRef &Section : Opened->Object->sections()) {
    Expected<StringRef> Name = Section.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != ".nv_fatbin")
      continue;
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents)
      return Contents.takeError();
    Expected<std::vector<EmbeddedCode>> Code = parseFatbins(*Contents);
    if (!Code)
      return createStringError(inconvertibleErrorCode(),
                               "'" + Path + "': " + toString(Code.takeError()));
    Report.Code = std::move(*Code);
  }
  Report.ToolkitRelease = findToolkitRelease(Opened->Buffer->getBuffer());

  DynamicInfo Dynamic = readDynamic(*Opened->Object);
  Report.Needed = Dynamic.Needed;
  for (const std::string &Library : Dynamic.Needed) {
    if (std::optional<unsigned> Major = cudartMajor(Library)) {
      Report.Runtime.Kind = RuntimeLink::Dynamic;
      Report.Runtime.Library = Library;
      CudaVersion Version{*Major, 0};
      if (Report.ToolkitRelease && Report.ToolkitRelease->Major == *Major)
        Version = *Report.ToolkitRelease;
      Report.Runtime.Version = Version;
    }
    if (StringRef(Library).starts_with("libtorch_cuda.so")) {
      Report.TorchCudaLibrary = Library;
      Report.TorchCudaPath = findLibrary(Library, Path, Dynamic.SearchPaths);
    }
  }
  // nvcc links the static runtime unless told otherwise: GPU code and no
  // libcudart means the runtime is inside.
  if (Report.Runtime.Kind == RuntimeLink::None && !Report.Code.empty()) {
    Report.Runtime.Kind = RuntimeLink::Static;
    Report.Runtime.Version = Report.ToolkitRelease;
  }

  if (!Report.TorchCudaPath.empty()) {
    Expected<OpenedElf> Torch = openElf(Report.TorchCudaPath);
    if (!Torch) {
      consumeError(Torch.takeError());
    } else {
      DynamicInfo TorchDynamic = readDynamic(*Torch->Object);
      for (const std::string &Library : TorchDynamic.Needed)
        if (std::optional<unsigned> Major = cudartMajor(Library)) {
          CudaVersion Version{*Major, 0};
          std::optional<CudaVersion> Release =
              findToolkitRelease(Torch->Buffer->getBuffer());
          if (Release && Release->Major == *Major)
            Version = *Release;
          Report.TorchCuda = Version;
        }
    }
  }
  return Report;
}

} // namespace gpuguard::doctor
