module trench

go 1.26

require github.com/spf13/pflag v1.0.10
