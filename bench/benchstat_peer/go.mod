module benchstat_peer

go 1.19
