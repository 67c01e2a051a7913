//===--- GitHubAnnotations.h - GitHub Actions workflow commands -*- C++ -*-===//
///
/// \file
/// `--format=github` prints each finding as a GitHub Actions workflow
/// command, which the Actions runner shows as an annotation on the line of
/// the pull request's diff:
///   ::warning file=src/k.cu,line=4,col=3,title=cuda-unchecked-index::text
/// Errors (compile errors and warnings made errors by --warnings-as-errors)
/// use ::error. The notes follow the message on lines of their own.
///
//===----------------------------------------------------------------------===//

#ifndef GPUGUARD_OUTPUT_GITHUBANNOTATIONS_H
#define GPUGUARD_OUTPUT_GITHUBANNOTATIONS_H

#include "Output/Finding.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace gpuguard::output {

/// A command's message: '%', '\r' and '\n' percent-encoded, as the Actions
/// toolkit does.
std::string escapeAnnotationData(llvm::StringRef Text);

/// A command's property value: also ':' and ','.
std::string escapeAnnotationProperty(llvm::StringRef Text);

/// One workflow command line for \p F.
void writeAnnotation(llvm::raw_ostream &OS, const Finding &F);

/// One ::error line on the file that \p File names.
void writeAnnotation(llvm::raw_ostream &OS, const NotAnalysed &File);

} // namespace gpuguard::output

#endif // GPUGUARD_OUTPUT_GITHUBANNOTATIONS_H
