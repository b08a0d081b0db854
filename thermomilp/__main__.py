from thermomilp.cli.main import main

raise SystemExit(main())
