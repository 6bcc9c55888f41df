/* placeholder: being written by the GPU back-end helper */
#ifndef CGR_REPORT_H
#define CGR_REPORT_H
#endif
