package lanes

const unreachable = "lanes: lane kernel called without lane support"
