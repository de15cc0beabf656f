import { Body, Controller, Get, Put } from '@nestjs/common';
import { ProfileDto, ProfileService } from '@jobctrl/runs';

@Controller('v1/profile')
export class ProfileController {
  constructor(private readonly profiles: ProfileService) {}

  @Get()
  get() {
    return this.profiles.get();
  }

  /** Saving does not need the worker; the automatic preparation batch starts when Temporal accepts it. */
  @Put()
  put(@Body() profile: ProfileDto) {
    return this.profiles.put(profile);
  }
}
