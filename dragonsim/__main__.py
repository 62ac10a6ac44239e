from dragonsim.cli import main

raise SystemExit(main())
