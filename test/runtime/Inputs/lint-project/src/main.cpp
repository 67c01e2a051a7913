#include "scale.cuh"

int main() { return 0; }
