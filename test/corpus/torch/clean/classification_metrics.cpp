// Per-class precision, recall and F1 of a confusion matrix: every division is
// protected, since a class that is never predicted (or never present) has a
// zero denominator.
#include <torch/torch.h>

#include <iostream>

int main() {
  const int64_t classes = 4;
  // Class 3 is never predicted and never present.
  const auto predicted = torch::tensor({0, 1, 1, 2, 0, 2, 1, 0});
  const auto actual = torch::tensor({0, 1, 2, 2, 0, 1, 1, 0});

  const auto confusion = torch::zeros({classes, classes});
  confusion.index_put_({actual, predicted}, torch::ones({8}),
                       /*accumulate=*/true);
  const auto truePositives = confusion.diagonal();
  const auto predictedCounts = confusion.sum(0);
  const auto actualCounts = confusion.sum(1);

  const auto precision = truePositives / predictedCounts.clamp_min(1);
  const auto recall = truePositives / actualCounts.clamp_min(1);
  const auto f1 =
      2 * precision * recall / (precision + recall).clamp_min(1e-12);
  std::cout << "precision " << precision << "\nrecall " << recall
            << "\nf1 " << f1 << "\n";
  return 0;
}
