#include "config.h"
#include "unit.h"
static Suite *s(void){ Suite *s = suite_create("placeholder"); return s; }
UNIT_MAIN(s)
