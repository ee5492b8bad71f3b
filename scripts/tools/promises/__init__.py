"""Every promise of the help and the contract, and the mistake that breaks each (`scripts/tool promises`)."""
