#include "demo.h"
#include <cstdio>

int main() {
  std::printf("answer %d\n", answer());
  return 0;
}
