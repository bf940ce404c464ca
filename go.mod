module trench

go 1.26
