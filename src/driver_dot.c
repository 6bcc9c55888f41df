#include "config.h"
/* placeholder: being written */
