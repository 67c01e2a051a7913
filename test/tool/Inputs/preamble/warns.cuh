// A header that warns: a preamble holding it is not used.
#pragma once
#warning "warns.cuh is deprecated"
