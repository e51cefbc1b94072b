// Declarations only: see include/LibFuzzerMutate.h.
#include "LibFuzzerMutate.h"
