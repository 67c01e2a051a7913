#include "demo.h"

int answer() { return DEMO_ANSWER; }
