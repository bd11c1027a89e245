// The controller-lab command. Subcommands are added by their features.
process.stderr.write('usage: controller-lab <sim|watch|run> ...\n');
process.exit(2);
