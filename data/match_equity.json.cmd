lcanalysis studies match-table --deals 100000 --matches 20000 --seed 0 --bootstrap 200
